// The vanilla proofs filecoin-proofs-api hands to a PoSt or SnapDeals SNARK, one bincode
// blob each (bincode.hpp; docs/filecoin/vanilla-proofs.md gives the byte layout):
//  - Window / Winning PoSt: a FallbackPoStSectorProof per sector
//    (generate_single_vanilla_proof's bytes, what Curio sends as they are);
//  - SnapDeals: a PartitionProof per partition (generate_partition_proofs' bytes).
// Reading checks the encoding alone — tags, lengths against the bytes left, every node a
// canonical Fr, every path index among its level's children, no trailing bytes; what the
// sector size and commitments fix is checked when the proofs become circuit inputs
// (post_vanilla.hpp, update_vanilla.hpp). Writing gives back the bytes bincode would.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/core/node_bytes.hpp"

namespace zkpipe::filecoin::api {

// storage-proofs-post's SectorProof: one sector's challenged leaves of tree_r_last.
struct SectorProof {
  std::vector<MerkleProof> inclusion_proofs;
  core::NodeBytes comm_c{};
  core::NodeBytes comm_r_last{};

  bool operator==(const SectorProof&) const = default;
};

// filecoin-proofs' FallbackPoStSectorProof (its vanilla_proof is fallback::Proof, whose
// one field is `sectors`).
struct FallbackPostSectorProof {
  std::uint64_t sector_id = 0;
  core::NodeBytes comm_r{};
  std::vector<SectorProof> sectors;

  bool operator==(const FallbackPostSectorProof&) const = default;
};

// storage-proofs-update's ChallengeProof: the challenged node in the old replica's
// tree_r, the new data's tree_d (binary SHA-256, a full path to comm_d_new) and the new
// replica's tree_r.
struct UpdateChallengeProof {
  MerkleProof proof_r_old;
  MerkleProof proof_d_new;
  MerkleProof proof_r_new;

  bool operator==(const UpdateChallengeProof&) const = default;
};

// storage-proofs-update's PartitionProof (the SHA-256 tree_d variant).
struct UpdatePartitionProof {
  core::NodeBytes comm_c{};
  std::vector<core::NodeBytes> apex_leafs;  // tree_d's nodes at the apex level under this partition
  std::vector<UpdateChallengeProof> challenge_proofs;

  bool operator==(const UpdatePartitionProof&) const = default;
};

// Each throws BincodeError naming `source`, the byte offset and the problem.
MerkleProof parse_merkle_proof(std::span<const std::uint8_t> blob, std::string_view source);
FallbackPostSectorProof parse_post_vanilla_proof(std::span<const std::uint8_t> blob, std::string_view source);
UpdatePartitionProof parse_update_vanilla_proof(std::span<const std::uint8_t> blob, std::string_view source);

std::vector<std::uint8_t> merkle_proof_bytes(const MerkleProof& proof);
std::vector<std::uint8_t> post_vanilla_proof_bytes(const FallbackPostSectorProof& proof);
std::vector<std::uint8_t> update_vanilla_proof_bytes(const UpdatePartitionProof& proof);

}  // namespace zkpipe::filecoin::api
