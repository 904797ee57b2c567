#include "circuits/filecoin/api/update_vanilla.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include "circuits/filecoin/api/vanilla_merkle.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/update/update_randomness.hpp"

namespace zkpipe::filecoin::api {

namespace {

constexpr core::TreeShape kBinary{2, 0, 0};

Fr comm_r_of(const Fr& comm_c, const Fr& root_r) {
  const Fr children[] = {comm_c, root_r};
  return hashers::poseidon::hash(children);
}

// Folds a node up binary SHA-256 levels: each level's one sibling on the side its index
// does not take.
hashers::Sha256Domain fold_binary(hashers::Sha256Domain node, std::span<const MerklePathElement> levels) {
  for (const MerklePathElement& e : levels) {
    node = e.index == 0 ? hashers::sha256_hash2(node, e.hashes[0]) : hashers::sha256_hash2(e.hashes[0], node);
  }
  return node;
}

// The apex tree over the partition's apex leaves, its levels from the leaves to its root.
std::vector<std::vector<hashers::Sha256Domain>> apex_tree(std::vector<hashers::Sha256Domain> leaves) {
  std::vector<std::vector<hashers::Sha256Domain>> levels{std::move(leaves)};
  while (levels.back().size() > 1) {
    const auto& below = levels.back();
    std::vector<hashers::Sha256Domain> up(below.size() / 2);
    for (std::size_t i = 0; i < up.size(); ++i) up[i] = hashers::sha256_hash2(below[2 * i], below[2 * i + 1]);
    levels.push_back(std::move(up));
  }
  return levels;
}

void require_sha256_variant(const update::UpdateShape& shape, const char* what) {
  if (shape.variant != update::UpdateHash::kSha256) {
    throw std::invalid_argument(std::string(what) + ": the Poseidon variant's vanilla proofs are not supported");
  }
}

void check_shape(const char* name, const MerkleProof& proof, std::uint64_t leaves, const core::TreeShape& shape) {
  try {
    check_merkle_proof_shape(proof, leaves, shape);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string(name) + ": " + e.what());
  }
}

// One challenge's three proofs as the circuit's challenge, `node` the one it must prove.
update::UpdateChallenge challenge_of(const update::UpdateShape& shape, const UpdatePartitionProof& vanilla,
                                     const UpdateChallengeProof& c, std::uint64_t node,
                                     const update::UpdatePartition& p, const hashers::Sha256Domain& comm_d,
                                     const Fr& rho) {
  check_shape("proof_r_old", c.proof_r_old, shape.nodes, shape.tree_r);
  check_shape("proof_d_new", c.proof_d_new, shape.nodes, kBinary);
  check_shape("proof_r_new", c.proof_r_new, shape.nodes, shape.tree_r);
  const struct {
    const char* name;
    const MerkleProof& proof;
    std::uint64_t index;
  } proofs[] = {{"proof_r_old", c.proof_r_old, c.proof_r_old.leaf_index(shape.tree_r.base, shape.tree_r.sub)},
                {"proof_d_new", c.proof_d_new, c.proof_d_new.leaf_index(2, 0)},
                {"proof_r_new", c.proof_r_new, c.proof_r_new.leaf_index(shape.tree_r.base, shape.tree_r.sub)}};
  for (const auto& q : proofs) {
    if (q.index != node) {
      throw std::invalid_argument(std::string(q.name) + " proves node " + std::to_string(q.index) +
                                  ", the circuit draws node " + std::to_string(node) + " from comm_r_new");
    }
  }
  if (hashers::domain_to_fr(c.proof_r_old.root) != p.root_r_old ||
      hashers::domain_to_fr(c.proof_r_new.root) != p.root_r_new) {
    throw std::invalid_argument("proof_r_old's or proof_r_new's root is not challenge 0's (a tree has one root)");
  }
  update::UpdateChallenge out;
  out.leaf_r_old = hashers::domain_to_fr(c.proof_r_old.leaf);
  out.leaf_d_new = hashers::domain_to_fr(c.proof_d_new.leaf);
  out.path_r_old = merkle_proof_path(c.proof_r_old);
  out.path_r_new = merkle_proof_path(c.proof_r_new);
  const Fr leaf_r_new = hashers::domain_to_fr(c.proof_r_new.leaf);
  if (core::root_from_path(out.leaf_r_old, out.path_r_old) != p.root_r_old) {
    throw std::invalid_argument("proof_r_old's path does not lead from its leaf to tree_r_old's root");
  }
  if (core::root_from_path(leaf_r_new, out.path_r_new) != p.root_r_new) {
    throw std::invalid_argument("proof_r_new's path does not lead from its leaf to tree_r_new's root");
  }
  if (c.proof_d_new.root != comm_d) throw std::invalid_argument("proof_d_new's root is not comm_d_new");
  const std::size_t below_apex = shape.levels_below_apex();
  const std::span<const MerklePathElement> d_levels = c.proof_d_new.base;
  const hashers::Sha256Domain apex_node = fold_binary(c.proof_d_new.leaf, d_levels.first(below_apex));
  const std::uint64_t apex_index = (node >> below_apex) & (shape.apex_leaf_count - 1);
  if (apex_node != vanilla.apex_leafs[apex_index]) {
    throw std::invalid_argument("proof_d_new's node at the apex level is not apex leaf " + std::to_string(apex_index));
  }
  if (fold_binary(apex_node, d_levels.subspan(below_apex)) != comm_d) {
    throw std::invalid_argument("proof_d_new's path does not lead from its leaf to comm_d_new");
  }
  if (leaf_r_new != out.leaf_r_old + out.leaf_d_new * rho) {
    throw std::invalid_argument("proof_r_new's leaf is not leaf_r_old + leaf_d_new · rho for h = " +
                                std::to_string(shape.hs[p.h_index]));
  }
  const core::PoseidonPath d_path = merkle_proof_path(c.proof_d_new);
  out.path_d_new.assign(d_path.begin(), d_path.begin() + static_cast<std::ptrdiff_t>(below_apex));
  return out;
}

}  // namespace

update::UpdatePartition update_partition_from_vanilla(const update::UpdateShape& shape,
                                                      const UpdatePartitionProof& vanilla, std::uint64_t k,
                                                      const UpdateCommitments& comms, std::size_t h_index) {
  const std::string name = "vanilla proof " + std::to_string(k);
  require_sha256_variant(shape, name.c_str());
  auto error = [&](const std::string& problem) { return std::invalid_argument(name + ": " + problem); };
  if (k >= shape.partitions) {
    throw error("partition " + std::to_string(k) + " of an update of " + std::to_string(shape.partitions));
  }
  if (h_index >= shape.hs.size()) throw error("h index " + std::to_string(h_index) + " past the six h values");
  if (vanilla.apex_leafs.size() != shape.apex_leaf_count) {
    throw error(std::to_string(vanilla.apex_leafs.size()) + " apex leaves, " + std::to_string(shape.apex_leaf_count) +
                " expected");
  }
  if (vanilla.challenge_proofs.size() != shape.challenge_count) {
    throw error(std::to_string(vanilla.challenge_proofs.size()) + " challenge proofs, " +
                std::to_string(shape.challenge_count) + " expected");
  }
  const UpdateChallengeProof& first = vanilla.challenge_proofs[0];
  update::UpdatePartition p;
  p.k = k;
  p.h_index = h_index;
  p.comm_r_old = comms.comm_r_old;
  p.comm_d_new = comms.comm_d_new;
  p.comm_r_new = comms.comm_r_new;
  p.comm_c = hashers::domain_to_fr(vanilla.comm_c);
  p.root_r_old = hashers::domain_to_fr(first.proof_r_old.root);
  p.root_r_new = hashers::domain_to_fr(first.proof_r_new.root);
  if (comm_r_of(p.comm_c, p.root_r_old) != p.comm_r_old) {
    throw error("comm_r_old is not Poseidon(comm_c, the root of challenge 0's proof_r_old)");
  }
  if (comm_r_of(p.comm_c, p.root_r_new) != p.comm_r_new) {
    throw error("comm_r_new is not Poseidon(comm_c, the root of challenge 0's proof_r_new)");
  }
  for (const core::NodeBytes& leaf : vanilla.apex_leafs) p.apex_leaves.push_back(hashers::domain_to_fr(leaf));

  const hashers::Sha256Domain comm_d = hashers::fr_to_domain(p.comm_d_new);
  const Fr phi = update::update_phi(p.comm_d_new, p.comm_r_old);
  const std::vector<std::uint64_t> nodes = update::update_challenges(shape, p.comm_r_new, k);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    try {
      p.challenges.push_back(challenge_of(shape, vanilla, vanilla.challenge_proofs[i], nodes[i], p, comm_d,
                                          update::update_rho(shape, phi, h_index, nodes[i])));
    } catch (const std::invalid_argument& e) {
      throw error("challenge " + std::to_string(i) + ": " + e.what());
    }
  }

  // The circuit hashes the apex leaves up to the apex root and takes it through
  // challenge 0's top levels (every challenge of the partition shares them) to comm_d_new.
  const std::size_t top = shape.challenge_bits() - shape.partition_bits();
  const std::span<const MerklePathElement> partition_levels = std::span(first.proof_d_new.base).subspan(top);
  for (const MerklePathElement& e : partition_levels) {
    p.partition_path.push_back(
        core::PathElement{{hashers::domain_to_fr(e.hashes[0])}, static_cast<std::size_t>(e.index)});
  }
  if (fold_binary(apex_tree(vanilla.apex_leafs).back()[0], partition_levels) != comm_d) {
    throw error("the apex leaves and challenge 0's top levels of proof_d_new do not lead to comm_d_new");
  }
  return p;
}

update::UpdatePartition update_partition_from_bytes(const update::UpdateShape& shape,
                                                    std::span<const std::uint8_t> blob, std::uint64_t k,
                                                    const UpdateCommitments& comms, std::size_t h_index) {
  const std::string name = "vanilla proof " + std::to_string(k);
  return update_partition_from_vanilla(shape, parse_update_vanilla_proof(blob, name), k, comms, h_index);
}

UpdatePartitionProof update_vanilla_proof(const update::UpdateShape& shape, const update::UpdatePartition& p) {
  require_sha256_variant(shape, "update_vanilla_proof");
  UpdatePartitionProof out;
  out.comm_c = hashers::fr_to_domain(p.comm_c);
  for (const Fr& leaf : p.apex_leaves) out.apex_leafs.push_back(hashers::fr_to_domain(leaf));
  if (out.apex_leafs.size() != shape.apex_leaf_count) {
    throw std::invalid_argument("update_vanilla_proof: " + std::to_string(out.apex_leafs.size()) +
                                " apex leaves, " + std::to_string(shape.apex_leaf_count) + " expected");
  }
  const std::vector<std::vector<hashers::Sha256Domain>> apex = apex_tree(out.apex_leafs);
  const std::size_t below_apex = shape.levels_below_apex();
  const Fr phi = update::update_phi(p.comm_d_new, p.comm_r_old);
  for (const update::UpdateChallenge& c : p.challenges) {
    const std::uint64_t node = core::path_leaf_index(c.path_r_old, shape.tree_r);
    const Fr leaf_r_new = c.leaf_r_old + c.leaf_d_new * update::update_rho(shape, phi, p.h_index, node);
    core::PoseidonPath d_path = c.path_d_new;
    const std::uint64_t apex_index = (node >> below_apex) & (shape.apex_leaf_count - 1);
    for (std::size_t level = 0; level + 1 < apex.size(); ++level) {
      const std::uint64_t at = apex_index >> level;
      d_path.push_back(
          core::PathElement{{hashers::domain_to_fr(apex[level][at ^ 1])}, static_cast<std::size_t>(at & 1)});
    }
    d_path.insert(d_path.end(), p.partition_path.begin(), p.partition_path.end());
    out.challenge_proofs.push_back(
        UpdateChallengeProof{merkle_proof_from_path(p.root_r_old, c.leaf_r_old, c.path_r_old, shape.tree_r),
                             merkle_proof_from_path(p.comm_d_new, c.leaf_d_new, d_path, kBinary),
                             merkle_proof_from_path(p.root_r_new, leaf_r_new, c.path_r_new, shape.tree_r)});
  }
  return out;
}

}  // namespace zkpipe::filecoin::api
