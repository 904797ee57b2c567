// SHA-256 in a circuit, over bits in SHA-256's order (bytes in sequence, most
// significant bit of each byte first). Constant inputs (IV, padding) cost nothing.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "gadgets/uint32.hpp"

namespace zkpipe::r1cs::sha256 {

using WordState = std::array<UInt32, 8>;

WordState initial_state();

// One compression of a 512-bit block into the chaining state.
WordState compress(ConstraintSystem& cs, std::span<const Boolean> block, const WordState& state);

// The 256-bit digest of a message of any bit length (padding is added as constants).
std::vector<Boolean> hash(ConstraintSystem& cs, std::span<const Boolean> message);

}  // namespace zkpipe::r1cs::sha256
