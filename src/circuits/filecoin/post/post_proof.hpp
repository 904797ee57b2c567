// Filecoin's PoSt proofs as filecoin-proofs defines them (constants.rs, post_util.rs,
// storage-proofs-post fallback/vanilla.rs), for the five published sector sizes:
//  - Window PoSt: every sector of a deadline proved, `sector_count` sectors a
//    partition (2349 at 32 GiB, 2300 at 64 GiB, else 2), 10 challenges a sector;
//  - Winning PoSt: one sector drawn, 66 challenges, which the circuit takes as 66
//    sectors of one challenge each (the sector repeated: filecoin-proofs'
//    winning_post_setup_params).
// The challenged leaves are drawn from the randomness with SHA-256; which challenge
// index a sector's n-th challenge uses depends on the API version.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "circuits/filecoin/core/seal_proof.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"

namespace zkpipe::filecoin::post {

enum class PostKind { kWindow, kWinning };

struct PostProof {
  PostKind kind;
  std::uint64_t sector_bytes;
  std::size_t sector_count;     // sectors in the circuit of one partition
  std::size_t challenge_count;  // challenges a circuit sector

  // "filecoin-window-post/32GiB".
  std::string name() const;
  std::uint64_t leaves() const { return sector_bytes / 32; }
  core::TreeShape tree_shape() const { return core::sector_tree_shape(sector_bytes); }
};

// Throws std::invalid_argument naming the published sizes for another size.
PostProof post_proof(PostKind kind, std::uint64_t sector_bytes);

// get_challenge_index: a sector's n-th challenge index — global over the proof's
// sectors before API 1.2, n alone from 1.2 on.
std::uint64_t post_challenge_index(core::ApiVersion api, std::uint64_t sector_index, std::size_t challenge_count,
                                   std::size_t n);

using PostRandomness = std::array<std::uint8_t, 32>;

// generate_leaf_challenge_inner: the first 8 bytes (little-endian) of
// SHA-256(randomness ‖ sector_id LE64 ‖ challenge_index LE64), modulo the leaves.
std::uint64_t post_leaf_challenge(const PostRandomness& randomness, std::uint64_t sector_id,
                                  std::uint64_t challenge_index, std::uint64_t leaves);

}  // namespace zkpipe::filecoin::post
