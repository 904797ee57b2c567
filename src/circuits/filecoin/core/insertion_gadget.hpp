// storage-proofs-core's insertion gadget (gadgets/insertion.rs): a Merkle path's
// current node placed among its siblings at the position its index bits give, so
// that the level's children can be hashed. The same variables and constraints, in
// the same order, as the reference:
//  - pick: one variable and (b − a)·condition = b − result;
//  - arity 2: two picks; arity 4: eight picks; arity 8: a nor and an and of the two
//    low bits, then twenty picks (22 constraints);
//  - any other power of two: a binary selection tree per output position,
//    size·(size − 1) picks.
#pragma once

#include <span>
#include <vector>

#include "gadgets/num.hpp"

namespace zkpipe::filecoin::core {

using gadgets::AllocatedNum;
using gadgets::Boolean;
using r1cs::ConstraintSystem;

// a when condition is true, b otherwise.
AllocatedNum pick(ConstraintSystem& cs, const Boolean& condition, const AllocatedNum& a, const AllocatedNum& b);

// from[n] for n the bits (least significant first); from.size() must be 2^bits.size().
AllocatedNum select(ConstraintSystem& cs, std::span<const AllocatedNum> from, std::span<const Boolean> bits);

// `elements` with `element` inserted at position n (the bits, least significant
// first): elements.size() + 1 must be 2^bits.size(). For 8 children the two low bits
// must be allocated, not negated (the reference's nor/and gadgets take only those).
// Throws std::invalid_argument otherwise.
std::vector<AllocatedNum> insert(ConstraintSystem& cs, const AllocatedNum& element, std::span<const Boolean> bits,
                                 std::span<const AllocatedNum> elements);

}  // namespace zkpipe::filecoin::core
