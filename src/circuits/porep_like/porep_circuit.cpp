#include "circuits/porep_like/porep_circuit.hpp"

#include <tbb/parallel_for.h>

#include <cstring>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>

#include "circuits/filecoin/core/constraint_gadgets.hpp"
#include "circuits/filecoin/core/insertion_gadget.hpp"
#include "circuits/filecoin/core/por_gadget.hpp"
#include "circuits/filecoin/hashers/poseidon_gadget.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/porep/stacked_replica.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/sha256.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::porep_like {

namespace {

namespace core = filecoin::core;
namespace hashers = filecoin::hashers;
using gadgets::AllocatedNum;
using gadgets::Boolean;

// Labels and column hashes are Filecoin's arity-11 Poseidon (its column hash).
constexpr std::size_t kColumnArity = 11;
// Index bits per level of the arity-8 replica tree.
constexpr std::size_t kReplicaLevelBits = 3;
// In SHA-256 bit order, the two top bits of byte 31: cleared in every trimmed node.
constexpr std::size_t kTrimmedBits[] = {248, 249};

// A pseudo-random trimmed node for (tag, seed, a, b, c).
Node derive(const char* tag, std::uint64_t seed, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
  std::vector<std::uint8_t> msg(tag, tag + std::strlen(tag));
  for (std::uint64_t v : {seed, a, b, c}) {
    for (int i = 0; i < 8; ++i) msg.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  return hashers::trimmed_sha256(msg);
}

void append_node_field(std::vector<std::uint8_t>& msg, std::uint64_t node) {
  msg.insert(msg.end(), 24, 0);
  for (int i = 7; i >= 0; --i) msg.push_back(static_cast<std::uint8_t>(node >> (8 * i)));
}

// The preimage of a SHA-256 label, byte for byte what the circuit hashes.
std::vector<std::uint8_t> label_preimage(const Node& replica_id, std::uint64_t node, const Node& prev,
                                         std::span<const Node> parents) {
  std::vector<std::uint8_t> msg(replica_id.begin(), replica_id.end());
  append_node_field(msg, node);
  msg.insert(msg.end(), prev.begin(), prev.end());
  for (const Node& p : parents) msg.insert(msg.end(), p.begin(), p.end());
  return msg;
}

// Arity-11 Poseidon of up to 11 elements, zero padded.
ff::Fr column_hash(std::vector<ff::Fr> preimage) {
  preimage.resize(kColumnArity, ff::Fr::zero());
  return hashers::poseidon::hash(preimage);
}

AllocatedNum column_hash(r1cs::ConstraintSystem& cs, std::vector<AllocatedNum> preimage, const AllocatedNum& zero) {
  preimage.resize(kColumnArity, zero);
  return hashers::poseidon::hash(cs, preimage);
}

// A trimmed node's bits as private variables (the two trimmed bits constant zero).
std::vector<Boolean> alloc_node_bits(r1cs::ConstraintSystem& cs, const Node& node) {
  std::vector<bool> values = gadgets::bytes_to_bits_be(node);
  std::vector<Boolean> bits(256);
  for (std::size_t i = 0; i < 256; ++i) {
    bool trimmed_bit = i == kTrimmedBits[0] || i == kTrimmedBits[1];
    bits[i] = trimmed_bit ? Boolean::constant(false) : Boolean::alloc(cs, values[i]);
  }
  return bits;
}

// The Fr a trimmed node's bits (SHA-256 order) encode: its bytes read little-endian.
// The two trimmed bits, the Fr's top two, are left out: they are constant zero.
gadgets::Num pack_node(std::span<const Boolean> node_bits) {
  const std::vector<Boolean> le = gadgets::reverse_bit_numbering(node_bits);
  return gadgets::pack_bits_le(std::span(le).first(ff::Fr::kBits - 1));
}

// The 32-byte node field (24 zero bytes, then the index as a big-endian u64) from
// the challenge's index bits (least significant first).
std::vector<Boolean> node_field_bits(std::span<const Boolean> index_bits) {
  std::vector<Boolean> bits(256, Boolean::constant(false));
  for (std::size_t i = 0; i < index_bits.size(); ++i) bits[255 - i] = index_bits[i];
  return bits;
}

// A challenged node's index bits, least significant first, and the public input
// they pack into.
struct ChallengeIndex {
  std::vector<Boolean> bits;
  AllocatedNum input;
};

ChallengeIndex alloc_challenge_index(r1cs::ConstraintSystem& cs, std::uint64_t node, std::size_t count) {
  auto s = cs.scope("index");
  std::vector<bool> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = ((node >> i) & 1) != 0;
  std::vector<Boolean> bits = gadgets::alloc_bits(cs, values);
  const AllocatedNum input = gadgets::inputize_packed(cs, bits);
  return ChallengeIndex{std::move(bits), input};
}

// The root above `leaf`: per level, the siblings allocated, the current node inserted
// among them at the position the level's index bits give, the children hashed.
// (The path's own indexes are not read: the challenge's bits are the positions.)
AllocatedNum climb(r1cs::ConstraintSystem& cs, core::TreeHash hash, AllocatedNum cur,
                   const std::vector<core::PathElement>& path, std::span<const Boolean> index_bits) {
  const std::size_t bits_per_level = hash == core::TreeHash::kSha256 ? 1 : kReplicaLevelBits;
  for (std::size_t level = 0; level < path.size(); ++level) {
    auto s = cs.scope("level", level);
    std::vector<AllocatedNum> others;
    others.reserve(path[level].hashes.size());
    for (const ff::Fr& h : path[level].hashes) others.push_back(AllocatedNum::alloc(cs, h));
    const std::vector<AllocatedNum> children =
        core::insert(cs, cur, index_bits.subspan(bits_per_level * level, bits_per_level), others);
    cur = core::tree_node(cs, hash, children);
  }
  return cur;
}

void check(const Preset& p) {
  if (p.layers == 0 || p.layers > kColumnArity) {
    throw std::invalid_argument("porep preset " + p.name + ": layers must be 1..11");
  }
  if (p.data_tree_depth > 3 * p.replica_tree_depth || p.replica_tree_depth == 0 || p.replica_tree_depth > 20) {
    throw std::invalid_argument("porep preset " + p.name + ": data tree deeper than the sector");
  }
  if (p.slots() != 0 && p.parents == 0) {
    throw std::invalid_argument("porep preset " + p.name + ": parent slots without parents");
  }
  if (p.label_hash == LabelHash::kPoseidon && p.parents + 3 > kColumnArity) {
    throw std::invalid_argument("porep preset " + p.name + ": a Poseidon label takes at most 8 parents");
  }
}

}  // namespace

PorepLikeCircuit::PorepLikeCircuit(const Preset& preset, std::uint64_t seed, std::size_t partitions)
    : preset_((check(preset), preset)),
      seed_(seed),
      partitions_(partitions),
      replica_id_(derive("zkpipe porep replica id", seed, 0)),
      columns_([&] {
        if (partitions == 0) throw std::invalid_argument("porep: at least one partition");
        std::map<std::uint64_t, Column> cols;
        for (std::size_t p = 0; p < partitions; ++p) {
          for (std::size_t j = 0; j < preset.challenges; ++j) {
            std::uint64_t node = challenge(p, j);
            if (!cols.contains(node)) cols.emplace(node, column(node));
          }
        }
        return cols;
      }()),
      data_tree_(
          preset.data_tree_depth,
          [&] {
            std::map<std::uint64_t, Node> leaves;
            const std::uint64_t mask = (std::uint64_t{1} << preset.data_tree_depth) - 1;
            for (const auto& [node, col] : columns_) leaves[node & mask] = data_leaf(node & mask);
            return leaves;
          }(),
          [&](std::size_t level, std::uint64_t index) { return derive("zkpipe porep data fill", seed, level, index); }),
      replica_tree_(
          preset.replica_tree_depth,
          [&] {
            std::map<std::uint64_t, ff::Fr> leaves;
            for (const auto& [node, col] : columns_) leaves[node] = col.hash;
            return leaves;
          }(),
          [&](std::size_t level, std::uint64_t index) {
            return hashers::domain_to_fr(derive("zkpipe porep replica fill", seed, level, index));
          }) {}

std::string PorepLikeCircuit::name() const { return "porep-like/" + preset_.name; }

std::uint64_t PorepLikeCircuit::challenge(std::size_t partition, std::size_t j) const {
  Node h = derive("zkpipe porep challenge", seed_, partition, j);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(h[i]) << (8 * i);
  return v % preset_.nodes();
}

Node PorepLikeCircuit::data_leaf(std::uint64_t index) const { return derive("zkpipe porep data", seed_, index); }

Node PorepLikeCircuit::parent_label(std::size_t layer, std::uint64_t node, std::size_t k) const {
  return derive("zkpipe porep parent", seed_, layer, node, k);
}

PorepLikeCircuit::Column PorepLikeCircuit::column(std::uint64_t node) const {
  Column col;
  Node prev_node{};
  ff::Fr prev_value = ff::Fr::zero();
  std::vector<ff::Fr> labels;
  for (std::size_t l = 0; l < preset_.layers; ++l) {
    std::vector<Node> parents;
    for (std::size_t k = 0; k < preset_.parents; ++k) parents.push_back(parent_label(l, node, k));
    if (preset_.label_hash == LabelHash::kSha256) {
      std::vector<Node> slots;
      for (std::size_t k = 0; k < preset_.slots(); ++k) slots.push_back(parents[k % parents.size()]);
      prev_node = hashers::trimmed_sha256(label_preimage(replica_id_, node, prev_node, slots));
      prev_value = hashers::domain_to_fr(prev_node);
    } else {
      std::vector<ff::Fr> in{hashers::domain_to_fr(replica_id_), ff::Fr::from_u64(node), prev_value};
      for (const Node& p : parents) in.push_back(hashers::domain_to_fr(p));
      prev_value = column_hash(std::move(in));
    }
    col.parents.insert(col.parents.end(), parents.begin(), parents.end());
    labels.push_back(prev_value);
  }
  col.hash = column_hash(std::move(labels));
  return col;
}

std::vector<ff::Fr> PorepLikeCircuit::public_inputs(std::size_t partition) const {
  if (partition >= partitions_) throw std::out_of_range("porep: no partition " + std::to_string(partition));
  std::vector<ff::Fr> in{hashers::domain_to_fr(replica_id_), hashers::domain_to_fr(data_tree_.root()),
                         replica_tree_.root()};
  for (std::size_t j = 0; j < preset_.challenges; ++j) in.push_back(ff::Fr::from_u64(challenge(partition, j)));
  return in;
}

PorepLikeCircuit::Shared PorepLikeCircuit::synthesize_shared(r1cs::ConstraintSystem& cs) const {
  std::vector<Boolean> replica_bits = alloc_node_bits(cs, replica_id_);
  const gadgets::Num packed = pack_node(replica_bits);
  const auto replica = AllocatedNum::alloc_input(cs, packed.value);
  gadgets::enforce_equal(cs, gadgets::Num::of(replica), packed);
  const auto comm_d = AllocatedNum::alloc_input(cs, hashers::domain_to_fr(data_tree_.root()));
  const auto comm_r = AllocatedNum::alloc_input(cs, replica_tree_.root());
  const auto zero = AllocatedNum::alloc(cs, ff::Fr::zero());
  cs.enforce(zero.lc(), r1cs::LC(r1cs::Variable::one()), r1cs::LC());  // zero·1 = 0
  return Shared{std::move(replica_bits), replica, comm_d, comm_r, zero};
}

void PorepLikeCircuit::synthesize_challenge(r1cs::ConstraintSystem& cs, const Shared& shared, std::size_t partition,
                                            std::size_t j) const {
  auto challenge_scope = cs.scope("challenge", j);
  const std::uint64_t node = challenge(partition, j);
  const Column& col = columns_.at(node);
  const ChallengeIndex index = alloc_challenge_index(cs, node, kReplicaLevelBits * preset_.replica_tree_depth);

  {
    auto s = cs.scope("data");
    const std::uint64_t leaf = node & ((std::uint64_t{1} << preset_.data_tree_depth) - 1);
    const AllocatedNum leaf_num = AllocatedNum::alloc(cs, hashers::domain_to_fr(data_leaf(leaf)));
    const AllocatedNum root = climb(cs, core::TreeHash::kSha256, leaf_num,
                                    filecoin::porep::tree_d_path(data_tree_.path(leaf)), index.bits);
    core::enforce_equal(cs, root, shared.comm_d);
  }

  std::vector<AllocatedNum> labels;
  std::vector<Boolean> prev_bits(256, Boolean::constant(false));
  for (std::size_t l = 0; l < preset_.layers; ++l) {
    auto s = cs.scope("label", l);
    std::span<const Node> parents(col.parents.data() + l * preset_.parents, preset_.parents);
    if (preset_.label_hash == LabelHash::kSha256) {
      std::vector<Boolean> msg(shared.replica_bits.begin(), shared.replica_bits.end());
      const auto node_bits = node_field_bits(index.bits);
      msg.insert(msg.end(), node_bits.begin(), node_bits.end());
      msg.insert(msg.end(), prev_bits.begin(), prev_bits.end());
      std::vector<std::vector<Boolean>> parent_bits;
      for (const Node& p : parents) parent_bits.push_back(alloc_node_bits(cs, p));
      for (std::size_t k = 0; k < preset_.slots(); ++k) {
        const auto& bits = parent_bits[k % parent_bits.size()];
        msg.insert(msg.end(), bits.begin(), bits.end());
      }
      prev_bits = gadgets::sha256::hash(cs, msg);
      for (std::size_t t : kTrimmedBits) prev_bits[t] = Boolean::constant(false);
      // The column hash takes variables: the label's bits packed into one.
      labels.push_back(gadgets::alloc_equal(cs, pack_node(prev_bits)));
    } else {
      std::vector<AllocatedNum> in{shared.replica, index.input, labels.empty() ? shared.zero : labels.back()};
      for (const Node& p : parents) in.push_back(AllocatedNum::alloc(cs, hashers::domain_to_fr(p)));
      labels.push_back(column_hash(cs, std::move(in), shared.zero));
    }
  }

  auto s = cs.scope("replica");
  const AllocatedNum leaf_num = column_hash(cs, std::move(labels), shared.zero);
  const AllocatedNum root = climb(cs, core::TreeHash::kPoseidon, leaf_num, replica_tree_.path(node), index.bits);
  core::enforce_equal(cs, root, shared.comm_r);
}
void PorepLikeCircuit::synthesize(r1cs::ConstraintSystem& cs, std::size_t partition) const {
  if (partition >= partitions_) throw std::out_of_range("porep: no partition " + std::to_string(partition));
  auto scope = cs.scope("porep");
  const Shared shared = synthesize_shared(cs);
  for (std::size_t j = 0; j < preset_.challenges; ++j) synthesize_challenge(cs, shared, partition, j);
}

r1cs::WitnessValues PorepLikeCircuit::synthesize_values(std::size_t partition, std::size_t inputs_hint,
                                                  std::size_t aux_hint) const {
  if (partition >= partitions_) throw std::out_of_range("porep: no partition " + std::to_string(partition));
  // The challenges share only what synthesize_shared allocates, read-only: each is
  // synthesized on its own segment, and the segments are laid out in challenge
  // order — the variable order of synthesize().
  r1cs::WitnessSystem head(inputs_hint, aux_hint);
  const Shared shared = synthesize_shared(head);
  const std::size_t n = preset_.challenges;
  const std::size_t segment_hint = aux_hint > head.num_aux() ? (aux_hint - head.num_aux()) / n : 0;
  std::vector<std::unique_ptr<r1cs::WitnessSystem>> segments(n);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t j) {
    segments[j] = std::make_unique<r1cs::WitnessSystem>(r1cs::WitnessSystem::Segment{}, segment_hint);
    synthesize_challenge(*segments[j], shared, partition, j);
  });

  for (auto& segment : segments) {
    head.append(std::move(*segment));
    segment.reset();
  }
  return std::move(head).values();
}

}  // namespace zkpipe::porep_like
