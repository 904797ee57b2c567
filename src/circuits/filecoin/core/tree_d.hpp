// tree_d: the binary SHA-256 Merkle tree over a sector's fr32-padded data, 32-byte
// leaves hashed pairwise with sha256_hash2 (rust-fil-proofs' BinaryMerkleTree of
// Sha256Hasher); comm_d is its root. The tree and its inclusion paths (one sibling
// and one index bit per level, leaf level first) are hash/merkle's Sha256Tree:
// its node is the same trimmed SHA-256.
#pragma once

#include <cstdint>
#include <span>

#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "hash/merkle.hpp"

namespace zkpipe::filecoin::core {

// Builds tree_d over padded data whose length is 32·2^k bytes; throws
// std::invalid_argument (naming the length) otherwise.
hash::merkle::Sha256Tree build_tree_d(std::span<const std::uint8_t> padded_data);

// comm_d of padded_size zero bytes (fr32 padding maps zeros to zeros, so this is
// also the commitment of an all-zero sector or zero piece of that padded size):
// the all-zero leaf hashed with itself once per level. padded_size must be 32·2^k.
hashers::Sha256Domain zero_comm_d(std::uint64_t padded_size);

}  // namespace zkpipe::filecoin::core
