// A vanilla proof's Merkle proof (c1_output.hpp's MerkleProof: bytes, base / sub / top
// paths, as storage-proofs-core serializes it) and a circuit's inclusion path
// (tree_poseidon.hpp's PoseidonPath: Fr siblings, one list of levels), each into the
// other, and the shape check that makes the first fit a tree before it becomes the second.
#pragma once

#include <cstdint>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"

namespace zkpipe::filecoin::api {

using ff::Fr;

// The proof's variant in a tree of this shape: Top with a top level, Sub with a sub
// level, Single otherwise (storage-proofs-core's try_from_proof).
MerkleProof::Kind merkle_proof_kind(const core::TreeShape& shape);

// Throws std::invalid_argument naming the first difference between the proof and a
// proof in a tree of `leaves` leaves of `shape`: its variant, its base path's level
// count, a level's sibling count (arity − 1) or index (below the arity).
void check_merkle_proof_shape(const MerkleProof& proof, std::uint64_t leaves, const core::TreeShape& shape);

// The base levels, then the sub level, then the top level, siblings as Fr (throws
// std::invalid_argument for a sibling that is not canonical).
core::PoseidonPath merkle_proof_path(const MerkleProof& proof);

// The proof of `shape`'s variant whose levels are the path's, split base / sub / top.
MerkleProof merkle_proof_from_path(const Fr& root, const Fr& leaf, const core::PoseidonPath& path,
                                   const core::TreeShape& shape);

}  // namespace zkpipe::filecoin::api
