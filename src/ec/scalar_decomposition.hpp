// GLV / GLS scalar decomposition for BLS12-381.
//
// Both groups have an endomorphism that acts on the prime-order subgroup as
// multiplication by a small "base" b:
//   G1: b = u^2   (128 bits), applied as -phi;   r < b^2, so k = k0 + k1 b
//   G2: b = |u|   (64 bits),  applied as -psi;   r < b^4, so k = k0 + k1 b + k2 b^2 + k3 b^3
// (u = -0xd201000000010000). Writing k < r in base b therefore splits [k]P into 2
// or 4 multiplications by half- or quarter-length scalars that share their doublings.
// The digits come from a bit-serial long division that runs the same instructions
// for every k, so the decomposition is safe for secret scalars.
#pragma once

#include <array>
#include <cstddef>

#include "ec/endomorphism.hpp"
#include "ec/generators.hpp"
#include "ff/limbs.hpp"

namespace zkpipe::ec {

struct DivMod {
  ff::Limbs<4> quotient;
  ff::Limbs<2> remainder;
};

// k = quotient * d + remainder for a nonzero divisor d < 2^128; constant time.
constexpr DivMod divmod_ct(const ff::Limbs<4>& k, const ff::Limbs<2>& d) {
  const ff::Limbs<3> divisor = {d[0], d[1], 0};
  ff::Limbs<3> rem{};
  DivMod out{};
  for (std::size_t i = 256; i-- > 0;) {
    rem[2] = (rem[2] << 1) | (rem[1] >> 63);
    rem[1] = (rem[1] << 1) | (rem[0] >> 63);
    rem[0] = (rem[0] << 1) | ((k[i / 64] >> (i % 64)) & 1);
    ff::Limbs<3> diff{};
    ff::u64 borrow = ff::limbs_sub(diff, rem, divisor);
    ff::u64 take = borrow - 1;  // all ones when rem >= divisor
    for (std::size_t j = 0; j < 3; ++j) rem[j] = (diff[j] & take) | (rem[j] & ~take);
    out.quotient[i / 64] |= (take & 1) << (i % 64);
  }
  out.remainder = {rem[0], rem[1]};
  return out;
}

template <class Curve>
struct Decomposition;

template <>
struct Decomposition<G1Curve> {
  static constexpr std::size_t kDimension = 2;
  static constexpr std::size_t kDigitBits = 128;
  static constexpr ff::Limbs<2> kBase = {
      static_cast<ff::u64>(static_cast<ff::u128>(kSeedAbs) * kSeedAbs),
      static_cast<ff::u64>((static_cast<ff::u128>(kSeedAbs) * kSeedAbs) >> 64)};

  // [u^2]P = -phi(P) on G1.
  template <class Point>
  static Point endomorphism(const Point& p) {
    return -phi(p);
  }
};

template <>
struct Decomposition<G2Curve> {
  static constexpr std::size_t kDimension = 4;
  static constexpr std::size_t kDigitBits = 64;
  static constexpr ff::Limbs<2> kBase = {kSeedAbs, 0};

  // [|u|]P = [-u]P = -psi(P) on G2.
  template <class Point>
  static Point endomorphism(const Point& p) {
    return -psi(p);
  }
};

// The base-b digits of k (k < r), least significant first; each < 2^kDigitBits.
template <class Curve>
constexpr std::array<ff::Limbs<2>, Decomposition<Curve>::kDimension> decompose_scalar(
    const ff::Limbs<4>& k) {
  using D = Decomposition<Curve>;
  std::array<ff::Limbs<2>, D::kDimension> digits{};
  ff::Limbs<4> rest = k;
  for (std::size_t i = 0; i + 1 < D::kDimension; ++i) {
    DivMod qr = divmod_ct(rest, D::kBase);
    digits[i] = qr.remainder;
    rest = qr.quotient;
  }
  digits[D::kDimension - 1] = {rest[0], rest[1]};  // < 2^kDigitBits because k < r
  return digits;
}

}  // namespace zkpipe::ec
