#include "circuits/filecoin/api/seal_commit1.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include "circuits/filecoin/core/tree_d.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/porep/challenges.hpp"
#include "circuits/filecoin/porep/labels.hpp"
#include "circuits/filecoin/porep/replica_id.hpp"
#include "circuits/filecoin/porep/sdr_graph.hpp"

namespace zkpipe::filecoin::api {

using ff::Fr;

namespace {

const core::SealProof& checked_proof(const SectorValues& values, const char* caller) {
  if (values.registered_proof == nullptr) {
    throw std::invalid_argument(std::string(caller) + ": the sector values name no registered proof");
  }
  return *values.registered_proof;
}

void check_data(const core::SealProof& proof, std::span<const core::NodeBytes> data) {
  const std::uint64_t nodes = proof.shape().nodes();
  if (data.size() != nodes) {
    throw std::invalid_argument("seal_sector: " + std::to_string(data.size()) + " data nodes, but " +
                                std::string(proof.name) + " seals sectors of " + std::to_string(nodes) + " nodes (" +
                                std::to_string(proof.sector_bytes) + " bytes)");
  }
  for (std::size_t i = 0; i < data.size(); ++i) {
    try {
      hashers::domain_to_fr(data[i]);
    } catch (const std::invalid_argument&) {
      throw std::invalid_argument("seal_sector: data node " + std::to_string(i) +
                                  " is not a canonical field element (its 32 little-endian bytes are not below r)");
    }
  }
}

core::NodeBytes comm_d_of(std::span<const core::NodeBytes> data) {
  // NodeBytes is an array of bytes: the nodes laid end to end are the sector's bytes.
  const std::span<const std::byte> bytes = std::as_bytes(data);
  return core::build_tree_d({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}).root();
}

std::vector<core::NodeBytes> domains(const std::vector<Fr>& values) {
  std::vector<core::NodeBytes> out;
  out.reserve(values.size());
  for (const Fr& v : values) out.push_back(hashers::fr_to_domain(v));
  return out;
}

MerklePathElement path_element(const core::PathElement& e) { return {domains(e.hashes), e.index}; }

// A path of the replica's trees (base levels, then the sub level and the top level when
// the shape has them) in the proof form the shape gives it (MerkleProof::from_parts).
MerkleProof replica_tree_proof(const core::TreeShape& shape, const core::NodeBytes& root, const core::NodeBytes& leaf,
                               const core::PoseidonPath& path) {
  MerkleProof proof;
  proof.kind = shape.top != 0   ? MerkleProof::Kind::kTop
               : shape.sub != 0 ? MerkleProof::Kind::kSub
                                : MerkleProof::Kind::kSingle;
  proof.root = root;
  proof.leaf = leaf;
  const std::size_t upper = (shape.sub != 0 ? 1 : 0) + (shape.top != 0 ? 1 : 0);
  const std::size_t base_levels = path.size() - upper;
  for (std::size_t level = 0; level < path.size(); ++level) {
    MerklePath& into = level < base_levels ? proof.base : level == base_levels ? proof.sub : proof.top;
    into.push_back(path_element(path[level]));
  }
  return proof;
}

// tree_d is a single binary tree whatever the sector size.
MerkleProof tree_d_proof(const porep::InMemoryReplica& replica, std::uint64_t node,
                         const porep::ChallengeProof& opened) {
  MerkleProof proof;
  proof.kind = MerkleProof::Kind::kSingle;
  proof.root = replica.comm_d();
  proof.leaf = replica.data()[node];
  for (const core::PathElement& e : opened.comm_d_path) proof.base.push_back(path_element(e));
  return proof;
}

// Column::into_proof: the node's labels in every layer, included in tree_c by their hash.
ColumnProof column_proof(const porep::InMemoryReplica& replica, std::uint32_t node,
                         const porep::ColumnOpening& opening) {
  ColumnProof proof;
  proof.index = node;
  proof.rows = domains(opening.labels);
  proof.inclusion_proof =
      replica_tree_proof(replica.tree_shape(), hashers::fr_to_domain(replica.comm_c()),
                         hashers::fr_to_domain(hashers::poseidon::hash(opening.labels)), opening.path);
  return proof;
}

template <std::size_t N>
std::vector<ColumnProof> column_proofs(const porep::InMemoryReplica& replica,
                                       const std::array<std::uint32_t, N>& parents,
                                       const std::vector<porep::ColumnOpening>& openings) {
  std::vector<ColumnProof> out;
  out.reserve(N);
  for (std::size_t i = 0; i < N; ++i) out.push_back(column_proof(replica, parents[i], openings[i]));
  return out;
}

// The label's parents as prove_layers reads them from the graph (node 0 included, whose
// base parents are node 0 itself): the base parents in this layer, from layer 2 on the
// expander parents in the previous one, repeated in order to fill the label's 37 slots.
LabelingProof labeling_proof(const porep::InMemoryReplica& replica, std::uint32_t layer, std::uint64_t node) {
  const porep::SdrGraph& graph = replica.graph();
  const std::vector<porep::LabelLayer>& labels = replica.labels();
  std::vector<core::NodeBytes> distinct;
  distinct.reserve(porep::kDegree);
  for (const std::uint32_t parent : graph.base_parents(node)) distinct.push_back(labels[layer - 1][parent]);
  if (layer > 1) {
    for (const std::uint32_t parent : graph.expander_parents(node)) distinct.push_back(labels[layer - 2][parent]);
  }
  LabelingProof proof;
  proof.parents.reserve(porep::kLabelParentSlots);
  for (std::size_t slot = 0; slot < porep::kLabelParentSlots; ++slot) {
    proof.parents.push_back(distinct[slot % distinct.size()]);
  }
  proof.layer_index = layer;
  proof.node = node;
  return proof;
}

VanillaProof vanilla_proof(const porep::InMemoryReplica& replica, std::uint64_t node) {
  const porep::ChallengeProof opened = replica.prove(node);
  const porep::SdrGraph& graph = replica.graph();
  VanillaProof proof;
  proof.comm_d_proofs = tree_d_proof(replica, node, opened);
  proof.comm_r_last_proof = replica_tree_proof(replica.tree_shape(), hashers::fr_to_domain(replica.comm_r_last()),
                                               replica.replica()[node], opened.comm_r_last_path);
  proof.replica_column_proofs.c_x = column_proof(replica, static_cast<std::uint32_t>(node), replica.column(node));
  proof.replica_column_proofs.drg_parents = column_proofs(replica, graph.base_parents(node), opened.drg_parents);
  proof.replica_column_proofs.exp_parents = column_proofs(replica, graph.expander_parents(node), opened.exp_parents);
  const auto layers = static_cast<std::uint32_t>(replica.layers());
  proof.labeling_proofs.reserve(layers);
  for (std::uint32_t layer = 1; layer <= layers; ++layer) {
    proof.labeling_proofs.push_back(labeling_proof(replica, layer, node));
  }
  // The encoding proof opens the same label as the last layer's labeling proof: the key
  // the data node was encoded with.
  proof.encoding_proof = proof.labeling_proofs.back();
  return proof;
}

}  // namespace

SealedSector seal_sector(const SectorValues& values, std::span<const core::NodeBytes> data) {
  const core::SealProof& proof = checked_proof(values, "seal_sector");
  check_data(proof, data);
  const core::SectorShape& shape = proof.shape();
  SectorValues sealed = values;
  sealed.comm_d = comm_d_of(data);
  const porep::ReplicaId id =
      porep::replica_id(values.prover_id, values.sector_id, values.ticket, sealed.comm_d, proof.porep_id());
  porep::InMemoryReplica replica(porep::SdrGraph(shape.nodes(), proof.porep_id(), proof.api_version), shape.layers,
                                 core::sector_tree_shape(proof.sector_bytes), id, {data.begin(), data.end()});
  sealed.comm_r = hashers::fr_to_domain(replica.comm_r());
  return SealedSector{std::move(replica), std::move(sealed)};
}

C1Output seal_commit_phase1(const SealedSector& sector) {
  const core::SealProof& proof = checked_proof(sector.values, "seal_commit_phase1");
  const porep::InMemoryReplica& replica = sector.replica;
  C1Output out;
  out.registered_proof = proof;
  // The commitments of the replica the proofs open, which seal_sector copied into the values.
  out.comm_r = hashers::fr_to_domain(replica.comm_r());
  out.comm_d = replica.comm_d();
  out.replica_id = replica.replica_id();
  out.seed = sector.values.seed;
  out.ticket = sector.values.ticket;
  out.vanilla_proofs.resize(proof.partitions());
  for (std::size_t k = 0; k < out.vanilla_proofs.size(); ++k) {
    const std::vector<std::uint64_t> challenges =
        porep::porep_challenges(proof, replica.replica_id(), out.seed, out.comm_r, k);
    out.vanilla_proofs[k].reserve(challenges.size());
    for (const std::uint64_t node : challenges) out.vanilla_proofs[k].push_back(vanilla_proof(replica, node));
  }
  return out;
}

}  // namespace zkpipe::filecoin::api
