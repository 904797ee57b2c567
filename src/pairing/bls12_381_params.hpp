// The curve seed x = -0xd201000000010000 as the pairing uses it: both the Miller
// loop and the final exponentiation walk the bits of |x| and fix the sign at the end.
#pragma once

#include "ec/generators.hpp"

namespace zkpipe::pairing {

inline constexpr ff::u64 kAbsX = ec::kSeedAbs;
inline constexpr bool kXIsNegative = ec::kSeedIsNegative;

// The loops start just below the top bit of |x|.
inline constexpr int kAbsXBits = 64 - __builtin_clzll(kAbsX);

}  // namespace zkpipe::pairing
