// Merkle inclusion in a circuit: from a leaf, a path's siblings and the leaf index
// bits, compute the root; the caller constrains it (usually to a public input).
// The index bits are shared by every path opened at the same position, and may be
// exposed as one public input (the packed index) or kept private.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "hash/merkle.hpp"
#include "gadgets/num.hpp"

namespace zkpipe::gadgets::merkle {

enum class IndexVisibility { kPrivate, kPublic };

// `count` boolean-constrained bits of `index`, least significant first; when public,
// also a public input equal to their packing.
std::vector<Boolean> alloc_index_bits(r1cs::ConstraintSystem& cs, std::uint64_t index, std::size_t count,
                                      IndexVisibility visibility);

// A node's 256 bits (SHA-256 order) as the Fr they encode (little-endian bytes); the
// two top bits must be constant zero, as they are for every hashed node.
Num pack_node(std::span<const Boolean> node_bits);

// SHA-256(left ‖ right) with the two top bits cleared, as bits.
std::vector<Boolean> sha256_node(r1cs::ConstraintSystem& cs, std::span<const Boolean> left, std::span<const Boolean> right);

// Root of a binary SHA-256 tree; one index bit per level.
Num sha256_root(r1cs::ConstraintSystem& cs, std::span<const Boolean> leaf_bits, std::span<const hash::merkle::Node> siblings,
                std::span<const Boolean> index_bits);

// Root of an arity-8 Poseidon tree; three index bits per level.
Num poseidon_root(r1cs::ConstraintSystem& cs, const Num& leaf,
                  std::span<const std::array<ff::Fr, hash::merkle::kPoseidonArity - 1>> siblings, std::span<const Boolean> index_bits);

}  // namespace zkpipe::gadgets::merkle
