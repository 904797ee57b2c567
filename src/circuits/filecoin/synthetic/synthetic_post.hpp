// A PoSt proof's partitions for sectors that were never sealed, for benchmarks and
// tests at every size: sector ids and randomness derive from the seed; each sector's
// tree_r_last is a sparse tree (sparse_poseidon_tree.hpp) holding random values at the
// leaves its challenges draw (post_proof.hpp) and zero elsewhere, comm_c is random and
// comm_r = Poseidon(comm_c, comm_r_last), so every path leads to the commitments the
// sector reports and the circuit is satisfied. A real sector's comm_r it is not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "circuits/filecoin/post/post_circuit.hpp"
#include "circuits/filecoin/post/post_proof.hpp"

namespace zkpipe::filecoin::synthetic {

// The values synthetic_post draws from `seed` before it builds any tree: the challenge
// randomness and, per vanilla sector proof, its sector id (Window: partitions ·
// sector_count, in partition order; Winning: the one sector). With them a caller can
// write the partitions as filecoin-proofs' vanilla proofs and check their challenges.
struct SyntheticPostDraws {
  post::PostRandomness randomness{};
  std::vector<std::uint64_t> sector_ids;
};

// Throws std::invalid_argument as synthetic_post does.
SyntheticPostDraws synthetic_post_draws(const post::PostProof& proof, std::uint64_t seed, std::size_t partitions);

// Window PoSt: `partitions` full partitions of proof.sector_count sectors, challenges
// numbered by `api` (post_challenge_index). Winning PoSt: one sector, its 66
// challenges as 66 circuit sectors (API 1.0, as filecoin-proofs numbers them); then
// `partitions` must be 1. Throws std::invalid_argument otherwise.
post::FallbackPostCircuit synthetic_post(const post::PostProof& proof, std::uint64_t seed, std::size_t partitions,
                                         core::ApiVersion api = core::ApiVersion::k1_2_0);

}  // namespace zkpipe::filecoin::synthetic
