#include "circuits/filecoin/porep/stacked_circuit.hpp"

#include <tbb/parallel_for.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "circuits/filecoin/core/constraint_gadgets.hpp"
#include "circuits/filecoin/core/por_gadget.hpp"
#include "circuits/filecoin/hashers/poseidon_gadget.hpp"
#include "circuits/filecoin/porep/create_label_gadget.hpp"
#include "gadgets/uint32.hpp"
#include "gadgets/uint64.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::filecoin::porep {

using gadgets::AllocatedNum;
using gadgets::Boolean;
using r1cs::ConstraintSystem;

namespace {

// tree_d: binary, no sub or top levels.
constexpr core::TreeShape kTreeDShape{2, 0, 0};

// What every challenge reads: the replica id's bits and the three tree roots.
struct Shared {
  std::vector<Boolean> replica_id_bits;
  AllocatedNum comm_d;
  AllocatedNum comm_r_last;
  AllocatedNum comm_c;
};

[[noreturn]] void malformed(std::size_t challenge, const std::string& what) {
  throw std::invalid_argument("stacked circuit: challenge " + std::to_string(challenge) + ": " + what);
}

// The layer count of the challenge's columns, checked against every column.
std::size_t checked_layers(const ChallengeProof& c, std::size_t j) {
  if (c.drg_parents.size() != kBaseDegree || c.exp_parents.size() != kExpansionDegree) {
    malformed(j, std::to_string(c.drg_parents.size()) + " DRG and " + std::to_string(c.exp_parents.size()) +
                     " expander parent columns, " + std::to_string(kBaseDegree) + " and " +
                     std::to_string(kExpansionDegree) + " expected");
  }
  const std::size_t layers = c.drg_parents[0].labels.size();
  if (layers != 2 && layers != 11) {
    malformed(j, std::to_string(layers) + " layers; columns are hashed for 2 or 11 layers only");
  }
  for (const auto* group : {&c.drg_parents, &c.exp_parents}) {
    for (const ColumnOpening& col : *group) {
      if (col.labels.size() != layers) {
        malformed(j, "a parent column of " + std::to_string(col.labels.size()) + " labels among columns of " +
                         std::to_string(layers));
      }
    }
  }
  return layers;
}

// storage-proofs-porep's hash_single_column: Poseidon of arity column.size().
AllocatedNum hash_column(ConstraintSystem& cs, std::span<const AllocatedNum> column) {
  return hashers::poseidon::hash(cs, column);
}

std::vector<AllocatedNum> alloc_column(ConstraintSystem& cs, const ColumnOpening& col) {
  auto s = cs.scope("column");
  std::vector<AllocatedNum> rows;
  rows.reserve(col.labels.size());
  for (const Fr& label : col.labels) rows.push_back(AllocatedNum::alloc(cs, label));
  return rows;
}

// A parent's column allocated, hashed and proven in tree_c.
std::vector<AllocatedNum> open_column(ConstraintSystem& cs, const Shared& shared, const core::TreeShape& shape,
                                      const ColumnOpening& col, std::string_view kind, std::size_t i) {
  std::vector<AllocatedNum> rows;
  {
    auto s = cs.scope(std::string(kind) + "_parent_num", i);
    rows = alloc_column(cs, col);
  }
  AllocatedNum hash = [&] {
    auto s = cs.scope(std::string(kind) + "_parent_constraint", i);
    return hash_column(cs, rows);
  }();
  auto s = cs.scope(std::string(kind) + "_parent_inclusion", i);
  core::enforce_inclusion(cs, core::TreeHash::kPoseidon, shape, hash, col.path, shared.comm_c,
                          core::RootVisibility::kPrivate);
  return rows;
}

// A label's bits as create_label hashes them: the 255-bit decomposition, padded
// to 32 bytes, each byte most significant bit first.
std::vector<Boolean> label_bits(ConstraintSystem& cs, const AllocatedNum& label) {
  return gadgets::reverse_bit_numbering(label.to_bits_le(cs));
}

Shared synthesize_shared(ConstraintSystem& cs, const StackedPartition& p) {
  const AllocatedNum replica_id = [&] {
    auto s = cs.scope("replica_id");
    return AllocatedNum::alloc(cs, p.replica_id);
  }();
  {
    auto s = cs.scope("replica_id_input");
    replica_id.inputize(cs);
  }
  std::vector<Boolean> replica_id_bits = [&] {
    auto s = cs.scope("replica_id_bits");
    return label_bits(cs, replica_id);
  }();
  auto alloc = [&](std::string_view label, const Fr& value) {
    auto s = cs.scope(label);
    return AllocatedNum::alloc(cs, value);
  };
  const AllocatedNum comm_d = alloc("comm_d", p.comm_d);
  {
    auto s = cs.scope("comm_d_input");
    comm_d.inputize(cs);
  }
  const AllocatedNum comm_r = alloc("comm_r", p.comm_r);
  {
    auto s = cs.scope("comm_r_input");
    comm_r.inputize(cs);
  }
  const AllocatedNum comm_r_last = alloc("comm_r_last", p.comm_r_last);
  const AllocatedNum comm_c = alloc("comm_c", p.comm_c);
  {
    auto s = cs.scope("H_comm_c_comm_r_last");
    const AllocatedNum children[] = {comm_c, comm_r_last};
    const AllocatedNum hash = hashers::poseidon::hash(cs, children);
    auto e = cs.scope("enforce comm_r = H(comm_c || comm_r_last)");
    core::enforce_equal(cs, comm_r, hash);
  }
  return Shared{std::move(replica_id_bits), comm_d, comm_r_last, comm_c};
}

void synthesize_challenge(ConstraintSystem& cs, const Shared& shared, const core::TreeShape& shape,
                          const ChallengeProof& c, std::size_t j) {
  const std::size_t layers = checked_layers(c, j);
  auto challenge_scope = cs.scope("challenge", j);

  const AllocatedNum data_leaf = [&] {
    auto s = cs.scope("data_leaf");
    return AllocatedNum::alloc(cs, c.data_leaf);
  }();
  {
    auto s = cs.scope("comm_d_inclusion");
    core::enforce_inclusion(cs, core::TreeHash::kSha256, kTreeDShape, data_leaf, c.comm_d_path, shared.comm_d,
                            core::RootVisibility::kPrivate);
  }

  std::vector<std::vector<AllocatedNum>> drg_columns;
  for (std::size_t i = 0; i < c.drg_parents.size(); ++i) {
    drg_columns.push_back(open_column(cs, shared, shape, c.drg_parents[i], "drg", i));
  }
  std::vector<std::vector<AllocatedNum>> exp_columns;
  for (std::size_t i = 0; i < c.exp_parents.size(); ++i) {
    exp_columns.push_back(open_column(cs, shared, shape, c.exp_parents[i], "exp", i));
  }

  const gadgets::UInt64 node = [&] {
    auto s = cs.scope("challenge");
    return gadgets::UInt64::alloc(cs, c.node);
  }();
  {
    auto s = cs.scope("challenge input");
    node.pack_into_input(cs);
  }

  std::vector<AllocatedNum> labels;
  labels.reserve(layers);
  for (std::size_t layer = 1; layer <= layers; ++layer) {
    auto s = cs.scope("labeling", layer);
    // Layer 1 hashes the DRG parents' labels of this layer; later layers also the
    // expander parents' labels of the previous one.
    std::vector<std::vector<Boolean>> parents;
    for (std::size_t i = 0; i < drg_columns.size(); ++i) {
      auto b = cs.scope("drg_parent_bits", parents.size());
      parents.push_back(label_bits(cs, drg_columns[i][layer - 1]));
    }
    if (layer > 1) {
      for (std::size_t i = 0; i < exp_columns.size(); ++i) {
        auto b = cs.scope("exp_parent_bits", parents.size());
        parents.push_back(label_bits(cs, exp_columns[i][layer - 2]));
      }
    }
    // The 37 slots repeat the parents in order.
    std::vector<std::vector<Boolean>> slots;
    slots.reserve(kCircuitLabelParents);
    for (std::size_t k = 0; k < kCircuitLabelParents; ++k) slots.push_back(parents[k % parents.size()]);
    labels.push_back(create_label_circuit(cs, shared.replica_id_bits, slots,
                                          gadgets::UInt32::constant(static_cast<std::uint32_t>(layer)), node));
  }

  const AllocatedNum encoded = [&] {
    auto s = cs.scope("encode_node");
    return core::encode(cs, labels.back(), data_leaf);
  }();
  {
    auto s = cs.scope("comm_r_last_data_inclusion");
    core::enforce_inclusion(cs, core::TreeHash::kPoseidon, shape, encoded, c.comm_r_last_path, shared.comm_r_last,
                            core::RootVisibility::kPrivate);
  }
  const AllocatedNum column_hash = [&] {
    auto s = cs.scope("c_x_column_hash");
    return hash_column(cs, labels);
  }();
  auto s = cs.scope("c_x_inclusion");
  core::enforce_inclusion(cs, core::TreeHash::kPoseidon, shape, column_hash, c.comm_c_path, shared.comm_c,
                          core::RootVisibility::kPrivate);
}

}  // namespace

void synthesize_stacked(ConstraintSystem& cs, const StackedPartition& partition, const core::TreeShape& tree_shape) {
  const Shared shared = synthesize_shared(cs, partition);
  for (std::size_t j = 0; j < partition.challenges.size(); ++j) {
    synthesize_challenge(cs, shared, tree_shape, partition.challenges[j], j);
  }
}

std::vector<Fr> stacked_public_inputs(const SdrGraph& graph, const Fr& replica_id, const Fr& comm_d,
                                      const Fr& comm_r, std::span<const std::uint64_t> challenges) {
  std::vector<Fr> inputs{replica_id, comm_d, comm_r};
  auto add_inclusion = [&](std::uint64_t leaf) {
    for (const Fr& x : core::inclusion_public_inputs(leaf)) inputs.push_back(x);
  };
  for (const std::uint64_t node : challenges) {
    if (node >= graph.nodes()) {
      throw std::invalid_argument("stacked_public_inputs: challenge " + std::to_string(node) + " of a graph of " +
                                  std::to_string(graph.nodes()) + " nodes");
    }
    add_inclusion(node);
    for (const std::uint32_t parent : graph.base_parents(node)) add_inclusion(parent);
    for (const std::uint32_t parent : graph.expander_parents(node)) add_inclusion(parent);
    inputs.push_back(Fr::from_u64(node));
    add_inclusion(node);  // the encoded node in tree_r_last
    add_inclusion(node);  // the column hash in tree_c
  }
  return inputs;
}

StackedCircuit::StackedCircuit(SdrGraph graph, core::TreeShape tree_shape, std::vector<StackedPartition> partitions)
    : graph_(std::move(graph)), tree_shape_(tree_shape), partitions_(std::move(partitions)) {
  if (partitions_.empty()) throw std::invalid_argument("StackedCircuit: no partitions");
  const std::size_t per_partition = partitions_[0].challenges.size();
  for (std::size_t p = 0; p < partitions_.size(); ++p) {
    if (partitions_[p].challenges.size() != per_partition || per_partition == 0) {
      throw std::invalid_argument("StackedCircuit: partition " + std::to_string(p) + " has " +
                                  std::to_string(partitions_[p].challenges.size()) + " challenges, " +
                                  std::to_string(per_partition) + " (at least one) expected");
    }
    for (const ChallengeProof& c : partitions_[p].challenges) {
      if (c.node >= graph_.nodes()) {
        throw std::invalid_argument("StackedCircuit: partition " + std::to_string(p) + " challenges node " +
                                    std::to_string(c.node) + " of " + std::to_string(graph_.nodes()));
      }
    }
  }
}

std::string StackedCircuit::name() const {
  return "filecoin-stacked/" + std::to_string(graph_.nodes()) + "-nodes/" +
         std::to_string(partitions_[0].challenges.size()) + "-challenges";
}

const StackedPartition& StackedCircuit::at(std::size_t partition) const {
  if (partition >= partitions_.size()) {
    throw std::out_of_range("StackedCircuit: no partition " + std::to_string(partition) + " of " +
                            std::to_string(partitions_.size()));
  }
  return partitions_[partition];
}

void StackedCircuit::synthesize(ConstraintSystem& cs, std::size_t partition) const {
  synthesize_stacked(cs, at(partition), tree_shape_);
}

void StackedCircuit::synthesize_shape(ConstraintSystem& cs, std::size_t partition) const {
  // A challenge's constraints depend on its layer count only, not on its values: the
  // commitments, then one challenge recorded over them and its copies appended (18
  // challenges of a 32 GiB partition for one). A witness whose challenges have other
  // layer counts has other sizes than this shape and is refused where it is proved.
  if (cs.new_segment() == nullptr) {
    synthesize(cs, partition);
    return;
  }
  const StackedPartition& p = at(partition);
  const Shared shared = synthesize_shared(cs, p);
  const std::unique_ptr<ConstraintSystem> challenge = cs.new_segment();  // over the commitments
  synthesize_challenge(*challenge, shared, tree_shape_, p.challenges.front(), 0);
  cs.append_segment(*challenge, p.challenges.size());
}

std::vector<Fr> StackedCircuit::public_inputs(std::size_t partition) const {
  const StackedPartition& p = at(partition);
  std::vector<std::uint64_t> nodes;
  nodes.reserve(p.challenges.size());
  for (const ChallengeProof& c : p.challenges) nodes.push_back(c.node);
  return stacked_public_inputs(graph_, p.replica_id, p.comm_d, p.comm_r, nodes);
}

r1cs::WitnessValues StackedCircuit::synthesize_values(std::size_t partition, std::size_t inputs_hint,
                                                      std::size_t aux_hint) const {
  const StackedPartition& p = at(partition);
  // Each challenge reads only what synthesize_shared allocated: the challenges are
  // synthesized on segments of their own and laid out in challenge order, the
  // variable order of synthesize().
  r1cs::WitnessSystem head(inputs_hint, aux_hint);
  const Shared shared = synthesize_shared(head, p);
  const std::size_t n = p.challenges.size();
  const std::size_t segment_hint = aux_hint > head.num_aux() ? (aux_hint - head.num_aux()) / n : 0;
  std::vector<std::unique_ptr<r1cs::WitnessSystem>> segments(n);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t j) {
    segments[j] = std::make_unique<r1cs::WitnessSystem>(r1cs::WitnessSystem::Segment{}, segment_hint);
    synthesize_challenge(*segments[j], shared, tree_shape_, p.challenges[j], j);
  });
  for (auto& segment : segments) {
    head.append(std::move(*segment));
    segment.reset();
  }
  return std::move(head).values();
}

}  // namespace zkpipe::filecoin::porep
