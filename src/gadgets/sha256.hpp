// SHA-256 in a circuit, over bits in SHA-256's order (bytes in sequence, most
// significant bit of each byte first). Constant inputs (IV, padding) cost nothing.
//
// bellperson's gadget (gadgets/sha256.rs) constraint for constraint: the same
// operations in the same order, each compression's additions checked through one
// MultiEq. A block of variable bits from the constant IV is 25 840 constraints; a
// padded 512-bit message (a second block of constant bits) 44 874.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "gadgets/uint32.hpp"

namespace zkpipe::gadgets::sha256 {

using WordState = std::array<UInt32, 8>;

WordState initial_state();

// One compression of a 512-bit block into the chaining state (its own MultiEq,
// flushed before it returns).
WordState compress(r1cs::ConstraintSystem& cs, std::span<const Boolean> block, const WordState& state);

// The 256-bit digest of a message of any bit length (padding is added as constants).
std::vector<Boolean> hash(r1cs::ConstraintSystem& cs, std::span<const Boolean> message);

}  // namespace zkpipe::gadgets::sha256
