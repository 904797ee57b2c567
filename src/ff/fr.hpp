// The BLS12-381 scalar field: r is 255 bits with two-adicity 32, which is what
// makes radix-2 NTTs up to 2^32 points possible.
#pragma once

#include "ff/mont_field.hpp"

namespace zkpipe::ff {

struct FrParams {
  static constexpr std::size_t kLimbs = 4;
  static constexpr Limbs<4> kModulus = {0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805,
                                        0x73eda753299d7d48};
  // 7 generates the multiplicative group of Fr (so it is also a non-residue).
  static constexpr u64 kNonResidue = 7;
};

using Fr = MontField<FrParams>;

static_assert(Fr::kTwoAdicity == 32);

// A primitive 2^log_n-th root of unity: 7^((r-1)/2^log_n). log_n <= 32.
Fr root_of_unity(unsigned log_n);

// The multiplicative generator, used as the default coset shift.
inline Fr multiplicative_generator() { return Fr::from_u64(FrParams::kNonResidue); }

}  // namespace zkpipe::ff
