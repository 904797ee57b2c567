// Merkle inclusion in a Filecoin tree, as storage-proofs-core's PoRCircuit
// (gadgets/por.rs) synthesizes it. Same variables, constraints and public inputs,
// in the same order:
//  - the leaf, allocated first unless it already is;
//  - per level, base levels from the leaf up, then the sub-tree level, then the top
//    level: log2(arity) index bits (each boolean-constrained, least significant
//    first), the arity − 1 siblings, the insertion of the current node among them
//    (insertion_gadget.hpp) and the hash of the children (tree_node below);
//  - every index bit packed into public inputs, 254 bits to an input: the leaf's
//    index, one input for any tree a sector has;
//  - the root, allocated unless it already is, the computed root equal to it
//    (computed·1 = root), and when public the root as one more input.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "gadgets/num.hpp"

namespace zkpipe::filecoin::core {

using gadgets::AllocatedNum;
using r1cs::ConstraintSystem;

enum class TreeHash {
  kPoseidon,  // tree_c, tree_r_last
  kSha256,    // tree_d
};

// filecoin-hashers' hash_multi_leaf_circuit: for Poseidon neptune's circuit of arity
// children.size(); for SHA-256 the children's 255-bit decompositions (to_bits_le,
// 256 constraints each) padded to 32 bytes, hashed, and the digest's first 254 bits
// (bytes little-endian) packed into a new variable.
AllocatedNum tree_node(ConstraintSystem& cs, TreeHash hash, std::span<const AllocatedNum> children);

// storage-proofs-core's Root: a number already in the circuit, or a value to allocate.
using Root = std::variant<AllocatedNum, Fr>;

enum class RootVisibility { kPrivate, kPublic };

// The levels of `path` are split by `shape`: the last is the top level when
// shape.top is set, the one before it (or the last) the sub-tree level when
// shape.sub is set, the rest base levels. Throws std::invalid_argument naming the
// level whose sibling count or index does not fit its arity, or for a shape whose
// arities are not powers of two (or a top level without a sub level).
void enforce_inclusion(ConstraintSystem& cs, TreeHash hash, const TreeShape& shape, const Root& leaf,
                       const std::vector<PathElement>& path, const Root& root, RootVisibility visibility);

// The public inputs enforce_inclusion adds for a path to leaf `leaf_index` (as
// PoRCompound::generate_public_inputs): the index, then the root when it is public.
std::vector<Fr> inclusion_public_inputs(std::uint64_t leaf_index, const std::optional<Fr>& public_root = std::nullopt);

}  // namespace zkpipe::filecoin::core
