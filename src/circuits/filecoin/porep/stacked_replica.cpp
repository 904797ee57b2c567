#include "circuits/filecoin/porep/stacked_replica.hpp"

#include <stdexcept>
#include <string>

#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/porep/encoding.hpp"

namespace zkpipe::filecoin::porep {

namespace {

std::vector<core::NodeBytes> checked_data(const SdrGraph& graph, std::vector<core::NodeBytes> data) {
  if (data.size() != graph.nodes()) {
    throw std::invalid_argument("InMemoryReplica: " + std::to_string(data.size()) + " data nodes for a graph of " +
                                std::to_string(graph.nodes()));
  }
  for (std::size_t i = 0; i < data.size(); ++i) {
    try {
      hashers::domain_to_fr(data[i]);
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument("InMemoryReplica: data node " + std::to_string(i) + " is not a canonical Fr");
    }
  }
  return data;
}

void check_layer_count(std::size_t layers) {
  if (layers != 2 && layers != 11) {
    throw std::invalid_argument("InMemoryReplica: " + std::to_string(layers) +
                                " layers; columns are hashed for 2 or 11 layers only");
  }
}

std::vector<LabelLayer> checked_labels(const SdrGraph& graph, std::vector<LabelLayer> labels) {
  check_layer_count(labels.size());
  for (std::size_t l = 0; l < labels.size(); ++l) {
    if (labels[l].size() != graph.nodes()) {
      throw std::invalid_argument("InMemoryReplica: layer " + std::to_string(l + 1) + " has " +
                                  std::to_string(labels[l].size()) + " labels for a graph of " +
                                  std::to_string(graph.nodes()) + " nodes");
    }
  }
  return labels;
}

std::vector<core::NodeBytes> encode_all(const std::vector<core::NodeBytes>& data, const LabelLayer& keys) {
  std::vector<core::NodeBytes> replica(data.size());
  for (std::size_t i = 0; i < data.size(); ++i) replica[i] = encode(keys[i], data[i]);
  return replica;
}

std::vector<Fr> column_hashes(const std::vector<LabelLayer>& labels) {
  std::vector<Fr> hashes(labels[0].size());
  std::vector<Fr> column(labels.size());
  for (std::size_t node = 0; node < hashes.size(); ++node) {
    for (std::size_t l = 0; l < labels.size(); ++l) column[l] = hashers::domain_to_fr(labels[l][node]);
    hashes[node] = hashers::poseidon::hash(column);
  }
  return hashes;
}

std::vector<Fr> as_frs(const std::vector<core::NodeBytes>& nodes) {
  std::vector<Fr> out;
  out.reserve(nodes.size());
  for (const core::NodeBytes& n : nodes) out.push_back(hashers::domain_to_fr(n));
  return out;
}

}  // namespace

std::vector<core::PathElement> tree_d_path(const hash::merkle::Sha256Path& path) {
  std::vector<core::PathElement> out;
  out.reserve(path.siblings.size());
  for (std::size_t level = 0; level < path.siblings.size(); ++level) {
    out.push_back(core::PathElement{{hashers::domain_to_fr(path.siblings[level])},
                                    static_cast<std::size_t>((path.index >> level) & 1)});
  }
  return out;
}

InMemoryReplica::InMemoryReplica(SdrGraph graph, std::size_t layers, core::TreeShape tree_shape,
                                 const ReplicaId& replica_id, std::vector<core::NodeBytes> data)
    : InMemoryReplica(Labeled{}, graph, tree_shape, replica_id, std::move(data),
                      (check_layer_count(layers), generate_labels(graph, replica_id, layers))) {}

InMemoryReplica InMemoryReplica::with_labels(SdrGraph graph, core::TreeShape tree_shape, const ReplicaId& replica_id,
                                             std::vector<core::NodeBytes> data, std::vector<LabelLayer> labels) {
  return InMemoryReplica(Labeled{}, std::move(graph), tree_shape, replica_id, std::move(data), std::move(labels));
}

InMemoryReplica::InMemoryReplica(Labeled, SdrGraph graph, core::TreeShape tree_shape, const ReplicaId& replica_id,
                                 std::vector<core::NodeBytes> data, std::vector<LabelLayer> labels)
    : graph_(std::move(graph)),
      replica_id_(replica_id),
      data_(checked_data(graph_, std::move(data))),
      labels_(checked_labels(graph_, std::move(labels))),
      replica_(encode_all(data_, labels_.back())),
      tree_d_(data_),
      tree_c_(column_hashes(labels_), tree_shape),
      tree_r_last_(as_frs(replica_), tree_shape),
      comm_r_(hashers::poseidon::hash(std::vector<Fr>{tree_c_.root(), tree_r_last_.root()})) {}

ColumnOpening InMemoryReplica::column(std::uint64_t node) const {
  if (node >= graph_.nodes()) {
    throw std::out_of_range("InMemoryReplica: node " + std::to_string(node) + " of " + std::to_string(graph_.nodes()));
  }
  ColumnOpening col;
  col.labels.reserve(labels_.size());
  for (const LabelLayer& layer : labels_) col.labels.push_back(hashers::domain_to_fr(layer[node]));
  col.path = tree_c_.path(node);
  return col;
}

ChallengeProof InMemoryReplica::prove(std::uint64_t node) const {
  if (node >= graph_.nodes()) {
    throw std::out_of_range("InMemoryReplica: challenge " + std::to_string(node) + " of " +
                            std::to_string(graph_.nodes()) + " nodes");
  }
  ChallengeProof proof;
  proof.node = node;
  proof.data_leaf = hashers::domain_to_fr(data_[node]);
  proof.comm_d_path = tree_d_path(tree_d_.path(node));
  proof.comm_r_last_path = tree_r_last_.path(node);
  proof.comm_c_path = tree_c_.path(node);
  for (const std::uint32_t parent : graph_.base_parents(node)) proof.drg_parents.push_back(column(parent));
  for (const std::uint32_t parent : graph_.expander_parents(node)) proof.exp_parents.push_back(column(parent));
  return proof;
}

StackedPartition InMemoryReplica::prove_partition(std::span<const std::uint64_t> challenges) const {
  StackedPartition p{.replica_id = hashers::domain_to_fr(replica_id_),
                     .comm_d = hashers::domain_to_fr(comm_d()),
                     .comm_r = comm_r_,
                     .comm_r_last = comm_r_last(),
                     .comm_c = comm_c(),
                     .challenges = {}};
  p.challenges.reserve(challenges.size());
  for (const std::uint64_t node : challenges) p.challenges.push_back(prove(node));
  return p;
}

}  // namespace zkpipe::filecoin::porep
