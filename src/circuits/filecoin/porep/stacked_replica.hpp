// A whole sector sealed in memory, with its trees, and the vanilla proofs the
// stacked circuit takes (rust-fil-proofs' replicate_phase1/phase2 and
// prove_layers, for sectors small enough to hold: tests and examples):
//  - labels of every layer (labels.hpp); tree_c over the column hashes (Poseidon of
//    the node's labels, arity = layers);
//  - the replica, each data node plus its last-layer label (encoding.hpp);
//    tree_r_last over it; tree_d over the data;
//  - comm_r = Poseidon(comm_c, comm_r_last).
// tree_c and tree_r_last have the given base/sub/top shape.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/porep/labels.hpp"
#include "circuits/filecoin/porep/sdr_graph.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"
#include "hash/merkle.hpp"

namespace zkpipe::filecoin::porep {

using ff::Fr;

class InMemoryReplica {
 public:
  // data: one canonical Fr (32 bytes little-endian) per node of the graph. Throws
  // std::invalid_argument naming the node for data that is not, for a data length
  // other than the graph's node count, for a layer count the column hash does not
  // take (2 or 11), or for a shape the node count does not fill.
  InMemoryReplica(SdrGraph graph, std::size_t layers, core::TreeShape tree_shape, const ReplicaId& replica_id,
                  std::vector<core::NodeBytes> data);
  // A replica sealed with the given labels (labels[0] is layer 1) rather than those
  // the graph gives: for labels computed elsewhere, or forged ones in soundness
  // tests. Throws std::invalid_argument as above, or for layers of the wrong size.
  static InMemoryReplica with_labels(SdrGraph graph, core::TreeShape tree_shape, const ReplicaId& replica_id,
                                     std::vector<core::NodeBytes> data, std::vector<LabelLayer> labels);

  const SdrGraph& graph() const { return graph_; }
  std::size_t layers() const { return labels_.size(); }
  const core::TreeShape& tree_shape() const { return tree_c_.shape(); }
  const ReplicaId& replica_id() const { return replica_id_; }
  const std::vector<core::NodeBytes>& data() const { return data_; }
  const std::vector<LabelLayer>& labels() const { return labels_; }
  const std::vector<core::NodeBytes>& replica() const { return replica_; }

  core::NodeBytes comm_d() const { return tree_d_.root(); }
  const Fr& comm_c() const { return tree_c_.root(); }
  const Fr& comm_r_last() const { return tree_r_last_.root(); }
  const Fr& comm_r() const { return comm_r_; }

  // The node's labels in every layer and its path in tree_c.
  ColumnOpening column(std::uint64_t node) const;
  // Throws std::out_of_range for a node outside the sector.
  ChallengeProof prove(std::uint64_t node) const;
  StackedPartition prove_partition(std::span<const std::uint64_t> challenges) const;

 private:
  struct Labeled {};
  InMemoryReplica(Labeled, SdrGraph graph, core::TreeShape tree_shape, const ReplicaId& replica_id,
                  std::vector<core::NodeBytes> data, std::vector<LabelLayer> labels);

  SdrGraph graph_;
  ReplicaId replica_id_;
  std::vector<core::NodeBytes> data_;
  std::vector<LabelLayer> labels_;
  std::vector<core::NodeBytes> replica_;
  hash::merkle::Sha256Tree tree_d_;
  core::PoseidonTree tree_c_;
  core::PoseidonTree tree_r_last_;
  Fr comm_r_;
};

// tree_d's inclusion path as the circuit takes it: one sibling (as an Fr) per level.
std::vector<core::PathElement> tree_d_path(const hash::merkle::Sha256Path& path);

}  // namespace zkpipe::filecoin::porep
