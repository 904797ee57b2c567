#include "circuits/filecoin/synthetic/synthetic_c1.hpp"

#include <array>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "circuits/filecoin/core/sparse_poseidon_tree.hpp"
#include "circuits/filecoin/core/tree_d.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/porep/challenges.hpp"
#include "circuits/filecoin/porep/encoding.hpp"
#include "circuits/filecoin/porep/labels.hpp"
#include "circuits/filecoin/porep/replica_id.hpp"
#include "circuits/filecoin/porep/sdr_graph.hpp"

namespace zkpipe::filecoin::synthetic {

using ff::Fr;

namespace {

// A node's label in every layer, layer 1 first (a column of tree_c).
using Column = std::vector<core::NodeBytes>;

// The entry of the registry (so that SectorValues may point at it), when its
// challenges can be drawn before comm_r is known.
const core::SealProof& interactive_proof(const core::SealProof& proof) {
  const core::SealProof& registered = core::seal_proof(proof.registered_id);
  if (registered.challenges == core::PorepChallenges::kInteractive) return registered;
  std::string same_circuit;
  for (const core::SealProof& p : core::seal_proofs()) {
    if (p.sector_bytes == proof.sector_bytes && p.api_version == core::ApiVersion::k1_1_0) same_circuit = p.name;
  }
  throw std::invalid_argument("synthetic_c1: " + std::string(proof.name) +
                              " draws its challenges from comm_r, which depends on the challenged labels; use " +
                              same_circuit + ", whose partitions are the same circuit");
}

std::array<std::uint8_t, 32> random_bytes(std::mt19937_64& rng) {
  std::array<std::uint8_t, 32> out{};
  for (std::size_t i = 0; i < out.size(); i += 8) {
    const std::uint64_t word = rng();
    for (std::size_t b = 0; b < 8; ++b) out[i + b] = static_cast<std::uint8_t>(word >> (8 * b));
  }
  return out;
}

// tree_d of an all-zero sector: the node of each level, leaves first, up to comm_d.
std::vector<core::NodeBytes> zero_tree_d_levels(std::uint64_t nodes) {
  std::vector<core::NodeBytes> levels{core::NodeBytes{}};
  for (std::uint64_t width = nodes; width > 1; width /= 2) {
    levels.push_back(hashers::sha256_hash2(levels.back(), levels.back()));
  }
  return levels;
}

api::MerkleProof tree_d_proof(const std::vector<core::NodeBytes>& zero_levels, std::uint64_t node) {
  api::MerkleProof proof;
  proof.kind = api::MerkleProof::Kind::kSingle;
  proof.root = zero_levels.back();
  proof.leaf = zero_levels.front();
  for (std::size_t level = 0; level + 1 < zero_levels.size(); ++level) {
    proof.base.push_back(api::MerklePathElement{{zero_levels[level]}, (node >> level) & 1});
  }
  return proof;
}

api::MerkleProof replica_tree_proof(const core::SparsePoseidonTree& tree, std::uint64_t node) {
  const core::TreeShape& shape = tree.shape();
  api::MerkleProof proof;
  proof.kind = shape.top != 0   ? api::MerkleProof::Kind::kTop
               : shape.sub != 0 ? api::MerkleProof::Kind::kSub
                                : api::MerkleProof::Kind::kSingle;
  proof.root = hashers::fr_to_domain(tree.root());
  proof.leaf = hashers::fr_to_domain(tree.leaf(node));
  const core::PoseidonPath path = tree.path(node);
  const std::size_t base_levels = path.size() - (shape.sub != 0 ? 1 : 0) - (shape.top != 0 ? 1 : 0);
  for (std::size_t level = 0; level < path.size(); ++level) {
    api::MerklePathElement element{{}, path[level].index};
    for (const Fr& sibling : path[level].hashes) element.hashes.push_back(hashers::fr_to_domain(sibling));
    api::MerklePath& into = level < base_levels ? proof.base : level == base_levels ? proof.sub : proof.top;
    into.push_back(std::move(element));
  }
  return proof;
}

Fr column_hash(const Column& column) {
  std::vector<Fr> labels;
  labels.reserve(column.size());
  for (const core::NodeBytes& label : column) labels.push_back(hashers::domain_to_fr(label));
  return hashers::poseidon::hash(labels);
}

// The labels, replica nodes and trees of the nodes the challenges open, and nothing else.
class SparseReplica {
 public:
  SparseReplica(const core::SealProof& proof, const porep::ReplicaId& replica_id,
                const std::set<std::uint64_t>& challenged, std::mt19937_64& rng)
      : graph_(proof.shape().nodes(), proof.porep_id(), proof.api_version),
        replica_id_(replica_id),
        zero_tree_d_(zero_tree_d_levels(graph_.nodes())) {
    for (const std::uint64_t node : challenged) parents_.emplace(node, graph_.parents(node));
    label_columns(proof.shape().layers, rng);

    const core::SectorShape& shape = proof.shape();
    const core::TreeShape tree_shape{shape.base_arity, shape.sub_arity, shape.top_arity};
    std::map<std::uint64_t, Fr> column_hashes;
    for (const auto& [node, column] : columns_) column_hashes.emplace(node, column_hash(column));
    tree_c_.emplace(graph_.nodes(), tree_shape, column_hashes);
    std::map<std::uint64_t, Fr> replica;
    for (const std::uint64_t node : challenged) {
      replica.emplace(node, hashers::domain_to_fr(porep::encode(columns_.at(node).back(), zero_tree_d_.front())));
    }
    tree_r_last_.emplace(graph_.nodes(), tree_shape, replica);
  }

  core::NodeBytes comm_d() const { return zero_tree_d_.back(); }
  core::NodeBytes comm_r() const {
    return hashers::fr_to_domain(hashers::poseidon::hash(std::vector<Fr>{tree_c_->root(), tree_r_last_->root()}));
  }

  api::VanillaProof prove(std::uint64_t challenge) const {
    const porep::SdrParents& parents = parents_.at(challenge);
    api::VanillaProof proof;
    proof.comm_d_proofs = tree_d_proof(zero_tree_d_, challenge);
    proof.comm_r_last_proof = replica_tree_proof(*tree_r_last_, challenge);
    proof.replica_column_proofs.c_x = column_proof(challenge);
    for (std::size_t i = 0; i < porep::kBaseDegree; ++i) {
      proof.replica_column_proofs.drg_parents.push_back(column_proof(parents[i]));
    }
    for (std::size_t i = porep::kBaseDegree; i < porep::kDegree; ++i) {
      proof.replica_column_proofs.exp_parents.push_back(column_proof(parents[i]));
    }
    const std::size_t layers = columns_.at(challenge).size();
    for (std::uint32_t layer = 1; layer <= layers; ++layer) {
      proof.labeling_proofs.push_back(labeling_proof(challenge, layer));
    }
    proof.encoding_proof = proof.labeling_proofs.back();
    return proof;
  }

 private:
  // The parent labels label() takes for (layer, node), every parent's column known.
  std::vector<core::NodeBytes> parent_labels(std::uint64_t node, std::uint32_t layer) const {
    const porep::SdrParents& parents = parents_.at(node);
    std::vector<core::NodeBytes> labels;
    labels.reserve(porep::kDegree);
    for (std::size_t i = 0; i < porep::kBaseDegree; ++i) labels.push_back(columns_.at(parents[i])[layer - 1]);
    for (std::size_t i = porep::kBaseDegree; layer > 1 && i < porep::kDegree; ++i) {
      labels.push_back(columns_.at(parents[i])[layer - 2]);
    }
    return labels;
  }

  // Random columns for the parents that are not challenged themselves, then the
  // challenged nodes' labels layer by layer and, within a layer, in node order: a base
  // parent is below its node, so a challenged one has its label of this layer already,
  // and an expander parent's label is of the layer before.
  void label_columns(std::size_t layers, std::mt19937_64& rng) {
    for (const auto& [node, parents] : parents_) {
      for (const std::uint32_t parent : parents) {
        if (!parents_.contains(parent)) columns_.try_emplace(parent);
      }
    }
    for (auto& [node, column] : columns_) {
      for (std::size_t l = 0; l < layers; ++l) column.push_back(hashers::fr_to_domain(Fr::random(rng)));
    }
    for (const auto& [node, parents] : parents_) columns_[node].reserve(layers);
    for (std::uint32_t layer = 1; layer <= layers; ++layer) {
      for (const auto& [node, parents] : parents_) {
        const core::NodeBytes own = porep::label(replica_id_, layer, node, parent_labels(node, layer));
        columns_.at(node).push_back(own);
      }
    }
  }

  api::ColumnProof column_proof(std::uint64_t node) const {
    return api::ColumnProof{static_cast<std::uint32_t>(node), columns_.at(node), replica_tree_proof(*tree_c_, node)};
  }

  // The 37 slots repeat the parents in order.
  api::LabelingProof labeling_proof(std::uint64_t node, std::uint32_t layer) const {
    const std::vector<core::NodeBytes> parents = parent_labels(node, layer);
    api::LabelingProof proof{std::vector<core::NodeBytes>(porep::kLabelParentSlots), layer, node};
    for (std::size_t slot = 0; slot < porep::kLabelParentSlots; ++slot) {
      proof.parents[slot] = parents[slot % parents.size()];
    }
    return proof;
  }

  porep::SdrGraph graph_;
  porep::ReplicaId replica_id_;
  std::vector<core::NodeBytes> zero_tree_d_;
  std::map<std::uint64_t, porep::SdrParents> parents_;  // of each challenged node
  std::map<std::uint64_t, Column> columns_;             // of each challenged node and parent
  std::optional<core::SparsePoseidonTree> tree_c_;
  std::optional<core::SparsePoseidonTree> tree_r_last_;
};

}  // namespace

SyntheticSeal synthetic_c1(const core::SealProof& requested, std::uint64_t seed) {
  const core::SealProof& proof = interactive_proof(requested);
  std::mt19937_64 rng(seed);

  api::SectorValues values;
  values.registered_proof = &proof;
  values.prover_id = random_bytes(rng);
  values.sector_id = rng() % 1'000'000;
  values.ticket = random_bytes(rng);
  values.seed = random_bytes(rng);
  values.comm_d = core::zero_comm_d(proof.sector_bytes);
  const porep::ReplicaId id =
      porep::replica_id(values.prover_id, values.sector_id, values.ticket, values.comm_d, proof.porep_id());

  std::vector<std::vector<std::uint64_t>> challenges;
  std::set<std::uint64_t> challenged;
  for (std::size_t k = 0; k < proof.partitions(); ++k) {
    challenges.push_back(porep::porep_challenges(proof, id, values.seed, core::NodeBytes{}, k));
    challenged.insert(challenges.back().begin(), challenges.back().end());
  }
  const SparseReplica replica(proof, id, challenged, rng);
  values.comm_r = replica.comm_r();

  api::C1Output c1;
  c1.registered_proof = proof;
  for (const std::vector<std::uint64_t>& partition : challenges) {
    std::vector<api::VanillaProof>& proofs = c1.vanilla_proofs.emplace_back();
    for (const std::uint64_t challenge : partition) proofs.push_back(replica.prove(challenge));
  }
  c1.comm_r = values.comm_r;
  c1.comm_d = replica.comm_d();
  c1.replica_id = id;
  c1.seed = values.seed;
  c1.ticket = values.ticket;
  return SyntheticSeal{std::move(c1), values};
}

}  // namespace zkpipe::filecoin::synthetic
