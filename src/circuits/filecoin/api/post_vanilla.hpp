// PoSt vanilla proofs (vanilla_proofs.hpp's FallbackPostSectorProof, one per sector, as
// filecoin-proofs-api's generate_single_vanilla_proof writes them) as one partition of
// the PoSt circuit (post_circuit.hpp), and a partition back as those proofs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "circuits/filecoin/post/post_circuit.hpp"
#include "circuits/filecoin/post/post_proof.hpp"

namespace zkpipe::filecoin::api {

// One partition from its sectors' vanilla proofs, in the order given (filecoin-proofs'
// single_partition_vanilla_proofs):
//  - Window PoSt: 1 to sector_count proofs of one SectorProof each, challenge_count
//    inclusion proofs a sector; the last sector is repeated up to sector_count;
//  - Winning PoSt: one proof whose one SectorProof holds the 66 inclusion proofs, which
//    become 66 sectors of one challenge sharing comm_c and comm_r_last.
// Each inclusion proof must have the sector size's tree shape (Single for 2 KiB, 8 MiB,
// 512 MiB; Sub for 32 GiB; Top for 64 GiB), its root must be the sector's comm_r_last and
// its path must lead there from its leaf, and comm_r must be Poseidon(comm_c,
// comm_r_last). A challenge's leaf index is its path's (Σ index_i · arity^i). Throws
// std::invalid_argument naming the proof ("vanilla proof 3") and challenge.
post::PostPartition post_partition_from_vanilla(const post::PostProof& proof,
                                                std::span<const FallbackPostSectorProof> vanilla);

// The same from the bincode blobs, the i-th named "vanilla proof i" in errors.
post::PostPartition post_partition_from_bytes(const post::PostProof& proof,
                                              std::span<const std::vector<std::uint8_t>> blobs);

// Throws std::invalid_argument naming the proof and challenge whose proven leaf is not
// the one `randomness` draws for its sector id (post_leaf_challenge): a caller with the
// randomness refuses vanilla proofs made for other challenges, whose circuit would be
// satisfied but whose proof no verifier accepts. `partition` is the proofs' partition
// within the whole PoSt proof (before API 1.2 a challenge's index counts the sectors
// before it).
void check_post_challenges(const post::PostProof& proof, std::span<const FallbackPostSectorProof> vanilla,
                           const post::PostRandomness& randomness, core::ApiVersion api, std::size_t partition = 0);

// The vanilla proofs of a partition, as filecoin-proofs writes them: Window PoSt one per
// sector, sector i with sector_ids[i]; Winning PoSt one, sector_ids[0], its sectors'
// challenges as one SectorProof (they must share their commitments). Throws
// std::invalid_argument for a partition or id count that does not fit.
std::vector<FallbackPostSectorProof> post_vanilla_proofs(const post::PostProof& proof,
                                                         const post::PostPartition& partition,
                                                         std::span<const std::uint64_t> sector_ids);

}  // namespace zkpipe::filecoin::api
