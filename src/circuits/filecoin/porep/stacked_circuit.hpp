// Filecoin's PoRep circuit for one partition: storage-proofs-porep's StackedCircuit
// (stacked/circuit/proof.rs) and its per-challenge Proof::synthesize
// (stacked/circuit/params.rs), over the gadgets here, with the same variables,
// constraints and public inputs in the same order. For a partition:
//  - replica_id (public; its 255 bits with their bit numbering reversed feed every
//    label), comm_d (public), comm_r (public), comm_r_last and comm_c (private), and
//    comm_r = Poseidon(comm_c, comm_r_last);
//  - per challenged node: the data leaf's inclusion in tree_d (SHA-256, binary); the
//    column of each of the 6 DRG and 8 expander parents, hashed (Poseidon of arity
//    layers) and included in tree_c; the node's index (64 bits, public); each layer's
//    label recomputed from the replica id, layer, node and its parents' labels
//    (create_label_gadget.hpp: 6 DRG parents in layer 1, then the 8 expander parents'
//    previous-layer labels too, repeated to 37 slots); the last label plus the data
//    leaf (the encoding) included in tree_r_last; the labels' column hash included in
//    tree_c.
// Every inclusion adds one public input, its leaf index, so a partition has
// 3 + 18·challenges inputs besides ONE (22 for one challenge, as rust-fil-proofs'
// stacked_circuit tests count them with ONE).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/porep/sdr_graph.hpp"
#include "r1cs/partitioned_circuit.hpp"

namespace zkpipe::filecoin::porep {

using ff::Fr;

// A node's labels in every layer (layer 1 first) and its inclusion path in tree_c.
struct ColumnOpening {
  std::vector<Fr> labels;
  std::vector<core::PathElement> path;
};

// What the circuit takes for one challenged node (the circuit Proof that
// rust-fil-proofs derives from a vanilla proof).
struct ChallengeProof {
  std::uint64_t node = 0;
  Fr data_leaf;                                // the unsealed data node
  std::vector<core::PathElement> comm_d_path;  // in tree_d: one sibling per level
  std::vector<core::PathElement> comm_r_last_path;
  std::vector<core::PathElement> comm_c_path;  // the node's own column hash in tree_c
  std::vector<ColumnOpening> drg_parents;      // kBaseDegree, in graph order
  std::vector<ColumnOpening> exp_parents;      // kExpansionDegree, in graph order
};

// One partition's circuit assignment.
struct StackedPartition {
  Fr replica_id;
  Fr comm_d;
  Fr comm_r;
  Fr comm_r_last;
  Fr comm_c;
  std::vector<ChallengeProof> challenges;
};

// The circuit for `partition`; tree_shape is the shape of tree_c and tree_r_last.
// Throws std::invalid_argument naming the challenge and what is malformed (parent
// counts, column lengths other than the layer count, a layer count other than 2 or
// 11 — the column hashes rust-fil-proofs supports — or paths that do not fit).
void synthesize_stacked(r1cs::ConstraintSystem& cs, const StackedPartition& partition,
                        const core::TreeShape& tree_shape);

// StackedCompound::generate_public_inputs: replica_id, comm_d, comm_r, then per
// challenge the leaf indexes of its inclusions (the node in tree_d, each DRG parent
// and each expander parent in tree_c), the node, the node in tree_r_last and in tree_c.
std::vector<Fr> stacked_public_inputs(const SdrGraph& graph, const Fr& replica_id, const Fr& comm_d,
                                      const Fr& comm_r, std::span<const std::uint64_t> challenges);

// A seal proof's partitions as the engine proves them. Public inputs are derived as a
// verifier derives them, from the graph and each partition's challenged nodes.
class StackedCircuit final : public r1cs::PartitionedCircuit {
 public:
  StackedCircuit(SdrGraph graph, core::TreeShape tree_shape, std::vector<StackedPartition> partitions);

  std::string name() const override;
  std::size_t partitions() const override { return partitions_.size(); }
  const SdrGraph& graph() const { return graph_; }
  const core::TreeShape& tree_shape() const { return tree_shape_; }
  const std::vector<StackedPartition>& assignments() const { return partitions_; }
  void synthesize(r1cs::ConstraintSystem& cs, std::size_t partition) const override;
  std::vector<Fr> public_inputs(std::size_t partition) const override;
  // The commitments and one challenge recorded, the challenge repeated.
  void synthesize_shape(r1cs::ConstraintSystem& cs, std::size_t partition) const override;
  // The challenges on all cores: they share only the replica id bits and the
  // commitments, which are allocated first.
  r1cs::WitnessValues synthesize_values(std::size_t partition, std::size_t inputs_hint = 0,
                                        std::size_t aux_hint = 0) const override;

 private:
  const StackedPartition& at(std::size_t partition) const;

  SdrGraph graph_;
  core::TreeShape tree_shape_;
  std::vector<StackedPartition> partitions_;
};

}  // namespace zkpipe::filecoin::porep
