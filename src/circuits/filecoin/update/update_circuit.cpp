#include "circuits/filecoin/update/update_circuit.hpp"

#include <bit>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "circuits/filecoin/core/constraint_gadgets.hpp"
#include "circuits/filecoin/core/insertion_gadget.hpp"
#include "circuits/filecoin/core/por_gadget.hpp"
#include "circuits/filecoin/hashers/poseidon_constants.hpp"
#include "circuits/filecoin/hashers/poseidon_gadget.hpp"
#include "gadgets/num.hpp"

namespace zkpipe::filecoin::update {

using gadgets::AllocatedNum;
using gadgets::Boolean;
using r1cs::ConstraintSystem;
using r1cs::LC;

namespace {

constexpr std::uint64_t kMiBNodes = std::uint64_t{1} << 15;

std::size_t log2_exact(std::uint64_t n, const char* what) {
  if (!std::has_single_bit(n)) throw std::invalid_argument(std::string(what) + " is not a power of two");
  return static_cast<std::size_t>(std::countr_zero(n));
}

AllocatedNum randomness_hash(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b) {
  const AllocatedNum preimage[] = {a, b};
  return hashers::poseidon::hash_with_tag(cs, hashers::poseidon::constants(2), update_randomness_tag(), preimage);
}

AllocatedNum alloc(ConstraintSystem& cs, std::string_view label, const Fr& value) {
  auto s = cs.scope(label);
  return AllocatedNum::alloc(cs, value);
}

std::vector<AllocatedNum> alloc_all(ConstraintSystem& cs, std::span<const Fr> values) {
  std::vector<AllocatedNum> out;
  out.reserve(values.size());
  for (const Fr& v : values) out.push_back(AllocatedNum::alloc(cs, v));
  return out;
}

// storage-proofs-core's por_no_challenge_input: the levels' siblings given (allocated
// already), the index bits given (least significant first, consumed per level), no
// public input; computed·1 = root.
void inclusion_by_bits(ConstraintSystem& cs, core::TreeHash hash, std::span<const std::size_t> arities,
                       std::span<const Boolean> bits, const AllocatedNum& leaf,
                       const std::vector<std::vector<AllocatedNum>>& siblings, const AllocatedNum& root) {
  AllocatedNum cur = leaf;
  std::size_t used = 0;
  for (std::size_t level = 0; level < arities.size(); ++level) {
    const std::size_t width = log2_exact(arities[level], "an arity");
    if (used + width > bits.size() || siblings[level].size() != arities[level] - 1) {
      throw std::invalid_argument("update circuit: inclusion level " + std::to_string(level) + " does not fit");
    }
    auto s = cs.scope("level", level);
    const std::vector<AllocatedNum> children = core::insert(cs, cur, bits.subspan(used, width), siblings[level]);
    cur = core::tree_node(cs, hash, children);
    used += width;
  }
  if (used != bits.size()) throw std::invalid_argument("update circuit: index bits left after the root");
  auto s = cs.scope("enforce root");
  core::enforce_equal(cs, cur, root);
}

std::vector<std::vector<AllocatedNum>> alloc_path(ConstraintSystem& cs, const std::vector<core::PathElement>& path,
                                                  std::string_view label) {
  auto s = cs.scope(label);
  std::vector<std::vector<AllocatedNum>> out;
  for (const core::PathElement& level : path) out.push_back(alloc_all(cs, level.hashes));
  return out;
}

// gen_challenge_bits: each challenge's `bits` random bits (least significant first),
// cut from Poseidon(comm_r_new, digest index) digests.
std::vector<std::vector<Boolean>> challenge_bits(ConstraintSystem& cs, const AllocatedNum& comm_r_new,
                                                 const AllocatedNum& partition, std::size_t count, std::size_t bits) {
  const std::size_t per_digest = (Fr::kBits - 1) / bits;
  const std::size_t digests = (count + per_digest - 1) / per_digest;
  std::vector<std::vector<Boolean>> out;
  for (std::size_t j = 0; j < digests; ++j) {
    auto s = cs.scope("digest", j);
    const Fr index_value = Fr::from_u64(digests) * partition.value() + Fr::from_u64(j);
    const AllocatedNum index = alloc(cs, "digest_index", index_value);
    cs.enforce(Fr::from_u64(digests) * partition.lc() + LC::constant(Fr::from_u64(j)), LC(r1cs::Variable::one()), index.lc());
    const AllocatedNum digest = randomness_hash(cs, comm_r_new, index);
    const std::vector<Boolean> digest_bits = digest.to_bits_le(cs);
    for (std::size_t c = 0; c < per_digest && out.size() < count; ++c) {
      out.emplace_back(digest_bits.begin() + static_cast<std::ptrdiff_t>(c * bits),
                       digest_bits.begin() + static_cast<std::ptrdiff_t>((c + 1) * bits));
    }
  }
  return out;
}

// get_challenge_high_bits: the top h bits of the challenge for the h h_select chooses.
AllocatedNum challenge_high_bits(ConstraintSystem& cs, std::span<const Boolean> c_bits,
                                 std::span<const Boolean> h_select, const std::array<std::size_t, 6>& hs) {
  Fr selected = Fr::zero();
  LC sum;
  for (std::size_t i = 0; i < hs.size(); ++i) {
    auto s = cs.scope("h", i);
    const AllocatedNum high = gadgets::alloc_packed(cs, c_bits.subspan(c_bits.size() - hs[i]));
    const Fr or_zero_value = h_select[i].value() ? high.value() : Fr::zero();
    const AllocatedNum or_zero = alloc(cs, "c_high_or_zero", or_zero_value);
    cs.enforce(high.lc(), h_select[i].lc(), or_zero.lc());
    selected += or_zero_value;
    sum += or_zero.lc();
  }
  const AllocatedNum out = alloc(cs, "c_high_selected", selected);
  cs.enforce(sum, LC(r1cs::Variable::one()), out.lc());
  return out;
}

// The first public input: k | h_select << partition bits (the Poseidon variant has no k).
std::uint64_t k_and_h_select(const UpdateShape& shape, const UpdatePartition& p) {
  const std::uint64_t k = shape.variant == UpdateHash::kSha256 ? p.k : 0;
  return k | ((std::uint64_t{1} << p.h_index) << shape.partition_bits());
}

void check_partition(const UpdateShape& shape, const UpdatePartition& p) {
  if (p.challenges.size() != shape.challenge_count) {
    throw std::invalid_argument("update circuit: " + std::to_string(p.challenges.size()) + " challenges, " +
                                std::to_string(shape.challenge_count) + " expected");
  }
  if (shape.variant == UpdateHash::kSha256 &&
      (p.apex_leaves.size() != shape.apex_leaf_count || p.partition_path.size() != shape.partition_bits())) {
    throw std::invalid_argument("update circuit: " + std::to_string(p.apex_leaves.size()) + " apex leaves and " +
                                std::to_string(p.partition_path.size()) + " partition path levels, " +
                                std::to_string(shape.apex_leaf_count) + " and " +
                                std::to_string(shape.partition_bits()) + " expected");
  }
  if (p.h_index >= shape.hs.size()) throw std::invalid_argument("update circuit: h index past the six h values");
}

}  // namespace

std::size_t UpdateShape::challenge_bits() const { return log2_exact(nodes, "the node count"); }
std::size_t UpdateShape::partition_bits() const { return log2_exact(partitions, "the partition count"); }
std::size_t UpdateShape::apex_bits() const {
  return apex_leaf_count == 0 ? 0 : log2_exact(apex_leaf_count, "the apex leaf count");
}

Fr update_randomness_tag() { return Fr::from_u64(std::uint64_t{1} << 40); }

UpdateShape update_shape(std::uint64_t nodes, const core::TreeShape& tree_r, UpdateHash variant) {
  if (!std::has_single_bit(nodes) || nodes < 32 || nodes > (std::uint64_t{1} << 31)) {
    throw std::invalid_argument("no SnapDeals circuit for sectors of " + std::to_string(nodes) + " nodes");
  }
  UpdateShape s;
  s.variant = variant;
  s.nodes = nodes;
  s.tree_r = tree_r;
  const std::size_t partitions = nodes <= 256 ? 1 : nodes <= 1024 ? 2 : nodes <= 16 * kMiBNodes ? 4 : 16;
  const std::size_t per_partition = nodes <= 16 * kMiBNodes ? 10 : 86;
  if (nodes <= 1024) {
    s.hs = {1, 1, 1, 1, 1, 1};
  } else {
    s.hs = {7, 8, 9, 10, 11, 12};
  }
  if (variant == UpdateHash::kSha256) {
    s.partitions = partitions;
    s.challenge_count = per_partition;
    s.apex_leaf_count = nodes <= 256 ? 8 : 128;
  } else {
    s.partitions = 1;
    s.challenge_count = per_partition * partitions;
    s.apex_leaf_count = 0;
  }
  return s;
}

void synthesize_empty_sector_update(ConstraintSystem& cs, const UpdateShape& shape, const UpdatePartition& p) {
  check_partition(shape, p);
  const bool sha = shape.variant == UpdateHash::kSha256;
  const std::size_t pbl = shape.partition_bits();
  const std::size_t cbl = shape.challenge_bits();

  // k and h_select as one public input, then its low bits.
  const std::uint64_t packed = k_and_h_select(shape, p);
  const AllocatedNum k_and_h = alloc(cs, "k_and_h_select", Fr::from_u64(packed));
  {
    auto s = cs.scope("k_and_h_select_input");
    k_and_h.inputize(cs);
  }
  std::vector<Boolean> low_bits;
  {
    auto s = cs.scope("k_and_h_select_bits");
    LC sum;
    Fr weight = Fr::one();
    for (std::size_t i = 0; i < pbl + 6; ++i) {
      low_bits.push_back(Boolean::alloc(cs, ((packed >> i) & 1) != 0));
      sum += weight * low_bits.back().lc();
      weight += weight;
    }
    cs.enforce(sum, LC(r1cs::Variable::one()), k_and_h.lc());
  }
  const std::span<const Boolean> partition_bits = std::span<const Boolean>(low_bits).first(pbl);
  const std::span<const Boolean> h_select_bits = std::span<const Boolean>(low_bits).subspan(pbl, 6);
  // The SHA-256 variant packs its partition bits here; the Poseidon variant allocates
  // an unconstrained zero after the comm_r checks (upstream's order: variables keep
  // their places in the parameters).
  std::optional<AllocatedNum> partition;
  if (sha) {
    auto s = cs.scope("partition");
    partition = gadgets::alloc_packed(cs, partition_bits);
  }

  auto public_num = [&](std::string_view label, const Fr& value) {
    const AllocatedNum n = alloc(cs, label, value);
    auto s = cs.scope("input");
    n.inputize(cs);
    return n;
  };
  const AllocatedNum comm_r_old = public_num("comm_r_old", p.comm_r_old);
  const AllocatedNum comm_d_new = public_num("comm_d_new", p.comm_d_new);
  const AllocatedNum comm_r_new = public_num("comm_r_new", p.comm_r_new);
  const AllocatedNum phi = [&] {
    auto s = cs.scope("phi");
    return randomness_hash(cs, comm_d_new, comm_r_old);
  }();

  const AllocatedNum comm_c = alloc(cs, "comm_c", p.comm_c);
  const AllocatedNum root_r_old = alloc(cs, "root_r_old", p.root_r_old);
  const AllocatedNum root_r_new = alloc(cs, "root_r_new", p.root_r_new);
  std::vector<AllocatedNum> apex_leaves;
  std::vector<std::vector<AllocatedNum>> partition_path;
  if (sha) {
    {
      auto s = cs.scope("apex_leafs");
      apex_leaves = alloc_all(cs, p.apex_leaves);
    }
    partition_path = alloc_path(cs, p.partition_path, "partition_path");
  }
  for (const auto& [label, root, comm_r] : {std::tuple{"comm_r_old", &root_r_old, &comm_r_old},
                                            std::tuple{"comm_r_new", &root_r_new, &comm_r_new}}) {
    auto s = cs.scope(label);
    const AllocatedNum children[] = {comm_c, *root};
    const AllocatedNum calc = hashers::poseidon::hash(cs, children);
    core::enforce_equal(cs, calc, *comm_r);
  }
  if (sha) {
    auto s = cs.scope("apex_por");
    std::vector<AllocatedNum> level = apex_leaves;
    for (std::size_t depth = 0; level.size() > 1; ++depth) {
      auto d = cs.scope("apex_level", depth);
      std::vector<AllocatedNum> up;
      for (std::size_t i = 0; i + 1 < level.size(); i += 2) {
        const AllocatedNum pair[] = {level[i], level[i + 1]};
        up.push_back(core::tree_node(cs, core::TreeHash::kSha256, pair));
      }
      level = std::move(up);
    }
    const std::vector<std::size_t> binary(pbl, 2);
    inclusion_by_bits(cs, core::TreeHash::kSha256, binary, partition_bits, level.front(), partition_path, comm_d_new);
  }

  if (!sha) partition = alloc(cs, "gen_challenge_bits partition zero", Fr::zero());
  const std::size_t random_bits = cbl - pbl;
  const std::vector<std::vector<Boolean>> chunks = [&] {
    auto s = cs.scope("challenge_bits");
    return challenge_bits(cs, comm_r_new, *partition, shape.challenge_count, random_bits);
  }();
  const std::vector<std::size_t> r_arities = core::path_arities(shape.nodes, shape.tree_r);
  const std::size_t apex_bits = shape.apex_bits();
  for (std::size_t i = 0; i < p.challenges.size(); ++i) {
    auto s = cs.scope("challenge", i);
    const UpdateChallenge& c = p.challenges[i];
    std::vector<Boolean> c_bits = chunks[i];
    c_bits.insert(c_bits.end(), partition_bits.begin(), partition_bits.end());
    const AllocatedNum c_high = challenge_high_bits(cs, c_bits, h_select_bits, shape.hs);
    const AllocatedNum rho = [&] {
      auto r = cs.scope("rho");
      return randomness_hash(cs, phi, c_high);
    }();
    const AllocatedNum leaf_r_old = alloc(cs, "leaf_r_old", c.leaf_r_old);
    const AllocatedNum leaf_d_new = alloc(cs, "leaf_d_new", c.leaf_d_new);
    const AllocatedNum leaf_r_new = [&] {
      auto l = cs.scope("label_r_new");
      const AllocatedNum t = alloc(cs, "data_rho", leaf_d_new.value() * rho.value());
      cs.enforce(leaf_d_new.lc(), rho.lc(), t.lc());
      const AllocatedNum sum = alloc(cs, "leaf_r_new", leaf_r_old.value() + t.value());
      cs.enforce(leaf_r_old.lc() + t.lc(), LC(r1cs::Variable::one()), sum.lc());
      return sum;
    }();
    if (c.path_r_old.size() != r_arities.size() || c.path_r_new.size() != r_arities.size()) {
      throw std::invalid_argument("update circuit: challenge " + std::to_string(i) + "'s tree_r paths have " +
                                  std::to_string(c.path_r_old.size()) + " and " + std::to_string(c.path_r_new.size()) +
                                  " levels, " + std::to_string(r_arities.size()) + " expected");
    }
    {
      const auto siblings = alloc_path(cs, c.path_r_old, "path_r_old");
      auto v = cs.scope("por_r_old");
      inclusion_by_bits(cs, core::TreeHash::kPoseidon, r_arities, c_bits, leaf_r_old, siblings, root_r_old);
    }
    {
      const auto siblings = alloc_path(cs, c.path_r_new, "path_r_new");
      auto v = cs.scope("por_r_new");
      inclusion_by_bits(cs, core::TreeHash::kPoseidon, r_arities, c_bits, leaf_r_new, siblings, root_r_new);
    }
    if (sha) {
      const std::size_t below_apex = shape.levels_below_apex();
      const AllocatedNum apex_leaf = [&] {
        auto a = cs.scope("apex_leaf");
        return core::select(cs, apex_leaves, std::span<const Boolean>(c_bits).subspan(below_apex, apex_bits));
      }();
      if (c.path_d_new.size() != below_apex) {
        throw std::invalid_argument("update circuit: challenge " + std::to_string(i) + "'s tree_d path has " +
                                    std::to_string(c.path_d_new.size()) + " levels below the apex, " +
                                    std::to_string(below_apex) + " expected");
      }
      const auto siblings = alloc_path(cs, c.path_d_new, "path_d_new");
      auto v = cs.scope("por_d_new");
      const std::vector<std::size_t> binary(below_apex, 2);
      inclusion_by_bits(cs, core::TreeHash::kSha256, binary, std::span<const Boolean>(c_bits).first(below_apex),
                        leaf_d_new, siblings, apex_leaf);
    } else {
      if (c.path_d_new.size() != r_arities.size()) {
        throw std::invalid_argument("update circuit: challenge " + std::to_string(i) + "'s tree_d path has " +
                                    std::to_string(c.path_d_new.size()) + " levels, " +
                                    std::to_string(r_arities.size()) + " expected");
      }
      const auto siblings = alloc_path(cs, c.path_d_new, "path_d_new");
      auto v = cs.scope("por_d_new");
      inclusion_by_bits(cs, core::TreeHash::kPoseidon, r_arities, c_bits, leaf_d_new, siblings, comm_d_new);
    }
  }
}

UpdatePartition blank_update_partition(const UpdateShape& shape) {
  UpdatePartition p{};
  const std::vector<core::PathElement> r_path = core::zero_path(shape.nodes, shape.tree_r);
  const bool sha = shape.variant == UpdateHash::kSha256;
  const core::TreeShape binary{2, 0, 0};
  const std::vector<core::PathElement> d_path =
      sha ? core::zero_path(std::uint64_t{1} << shape.levels_below_apex(), binary) : r_path;
  if (sha) {
    p.apex_leaves.assign(shape.apex_leaf_count, Fr::zero());
    p.partition_path = core::zero_path(shape.partitions, binary);
  }
  p.challenges.assign(shape.challenge_count, UpdateChallenge{Fr::zero(), Fr::zero(), r_path, r_path, d_path});
  return p;
}

std::vector<Fr> update_public_inputs(const UpdateShape& shape, const UpdatePartition& partition) {
  return {Fr::from_u64(k_and_h_select(shape, partition)), partition.comm_r_old, partition.comm_d_new,
          partition.comm_r_new};
}

EmptySectorUpdateCircuit::EmptySectorUpdateCircuit(std::string name, UpdateShape shape,
                                                   std::vector<UpdatePartition> partitions)
    : name_(std::move(name)), shape_(shape), partitions_(std::move(partitions)) {
  if (partitions_.empty()) throw std::invalid_argument(name_ + ": a SnapDeals proof without partitions");
}

const UpdatePartition& EmptySectorUpdateCircuit::at(std::size_t partition) const {
  if (partition >= partitions_.size()) {
    throw std::out_of_range(name_ + ": partition " + std::to_string(partition) + " of " +
                            std::to_string(partitions_.size()));
  }
  return partitions_[partition];
}

void EmptySectorUpdateCircuit::synthesize(ConstraintSystem& cs, std::size_t partition) const {
  synthesize_empty_sector_update(cs, shape_, at(partition));
}

std::vector<Fr> EmptySectorUpdateCircuit::public_inputs(std::size_t partition) const {
  return update_public_inputs(shape_, at(partition));
}

}  // namespace zkpipe::filecoin::update
