// The BLS12-381 base field: p is 381 bits, p ≡ 3 (mod 4).
#pragma once

#include "ff/mont_field.hpp"

namespace zkpipe::ff {

struct FpParams {
  static constexpr std::size_t kLimbs = 6;
  static constexpr Limbs<6> kModulus = {0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                                        0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
  // p ≡ 3 (mod 8), so 2 is a quadratic non-residue.
  static constexpr u64 kNonResidue = 2;
};

using Fp = MontField<FpParams>;

}  // namespace zkpipe::ff
