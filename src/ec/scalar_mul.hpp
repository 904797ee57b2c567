// Scalar multiplication [k]P on G1 and G2.
//
//   mul_vartime     public scalars: GLV (G1) / GLS (G2) decomposition and wNAF,
//                   time depends on k.
//   mul_ct          secret scalars: the same decomposition, then signed fixed windows
//                   with table lookups that read every entry and complete projective
//                   formulas; no branch or memory index depends on k.
//   mul_double_and_add
//                   the plain reference, for any point and any scalar length.
//
// mul_vartime and mul_ct use the endomorphism, so P must lie in the prime-order
// subgroup (decoded points are checked for that); mul_double_and_add has no such
// precondition.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "ec/affine.hpp"
#include "ec/batch_normalize.hpp"
#include "ec/ct_select.hpp"
#include "ec/jacobian.hpp"
#include "ec/projective.hpp"
#include "ec/scalar_decomposition.hpp"
#include "ff/fr.hpp"

namespace zkpipe::ec {

template <class Curve, std::size_t N>
constexpr Jacobian<Curve> mul_double_and_add(const Jacobian<Curve>& p, const ff::Limbs<N>& k) {
  Jacobian<Curve> acc = Jacobian<Curve>::identity();
  for (std::size_t i = ff::limbs_bit_length(k); i-- > 0;) {
    acc = acc.dbl();
    if (ff::limbs_bit(k, i)) acc += p;
  }
  return acc;
}

namespace detail {

// Window width of the wNAF digits (odd digits in (-2^(w-1), 2^(w-1))) per curve:
// with four 64-bit digits on G2, a smaller table beats fewer additions.
template <class Curve>
inline constexpr unsigned kWnafWidth = Decomposition<Curve>::kDimension == 2 ? 5 : 4;

template <class Curve>
inline constexpr std::size_t kWnafTableSize = std::size_t{1} << (kWnafWidth<Curve> - 2);

// wNAF digits of k < 2^kBits, least significant first; returns how many digits.
// k + 2^(w-1) must not overflow 128 bits, which holds for decomposition digits.
template <unsigned kWidth, std::size_t kBits>
std::size_t wnaf(ff::Limbs<2> limbs, std::array<std::int8_t, kBits + 1>& digits) {
  ff::u128 k = (static_cast<ff::u128>(limbs[1]) << 64) | limbs[0];
  constexpr int kModulus = 1 << kWidth;
  std::size_t n = 0;
  while (k != 0) {
    int d = 0;
    if (k & 1) {
      d = static_cast<int>(k & (kModulus - 1));
      if (d >= kModulus / 2) d -= kModulus;
      k = d > 0 ? k - static_cast<ff::u128>(d) : k + static_cast<ff::u128>(-d);
    }
    digits[n++] = static_cast<std::int8_t>(d);
    k >>= 1;
  }
  return n;
}

// Window width of the constant-time signed digits, in [-2^(w-1), 2^(w-1)].
inline constexpr unsigned kCtWindow = 5;
inline constexpr std::size_t kCtTableSize = std::size_t{1} << (kCtWindow - 1);

struct SignedDigit {
  ff::u64 magnitude;  // 0 ..= 2^(w-1)
  ff::u64 negative;   // all ones when the digit is negative
};

// Booth recoding of window i: bits [w i - 1, w i + w - 1] of k (bit -1 is 0) give the
// digit v + c - 2^w t, with v the window's value, c the previous window's top bit and
// t this window's top bit; the digits sum back to k when a final window is all zero.
// Only shifts and masks on k: constant time.
inline SignedDigit booth_digit(const ff::Limbs<2>& k, std::size_t window) {
  ff::u64 bits = 0;  // the w + 1 bits, the borrowed lower bit at position 0
  for (std::size_t b = 0; b <= kCtWindow; ++b) {
    std::size_t pos = window * kCtWindow + b;  // bit pos - 1 of k
    if (pos == 0 || pos - 1 >= 128) continue;  // public positions only
    bits |= ((k[(pos - 1) / 64] >> ((pos - 1) % 64)) & 1) << b;
  }
  ff::u64 top = bits >> kCtWindow;
  std::int64_t d = static_cast<std::int64_t>((bits + 1) >> 1) -
                   static_cast<std::int64_t>(top << kCtWindow);
  ff::u64 negative = static_cast<ff::u64>(d >> 63);  // arithmetic shift: 0 or all ones
  ff::u64 magnitude = (static_cast<ff::u64>(d) ^ negative) - negative;
  return {magnitude, value_barrier(negative)};
}

// table[i] = [i + 1]B; returns [magnitude]B, the identity for 0, reading every entry.
template <class Curve>
Projective<Curve> ct_lookup(const std::array<Projective<Curve>, kCtTableSize>& table,
                            ff::u64 magnitude) {
  Projective<Curve> r = Projective<Curve>::identity();
  for (std::size_t i = 0; i < kCtTableSize; ++i) {
    r = ct_select(ct_eq_mask(magnitude, i + 1), table[i], r);
  }
  return r;
}

}  // namespace detail

template <class Curve>
Jacobian<Curve> mul_vartime(const Jacobian<Curve>& p, const ff::Fr& k) {
  using D = Decomposition<Curve>;
  using Point = Jacobian<Curve>;
  using AffinePoint = Affine<Curve>;
  if (p.is_identity()) return p;
  const auto digits = decompose_scalar<Curve>(k.to_canonical());

  // tables[j][i] = [2i + 1][b^j]P in affine form, so that the main loop uses the
  // cheaper mixed addition: one batched inversion for the odd multiples of P, then
  // the endomorphism (a few multiplications per point) for the other tables.
  constexpr std::size_t kTableSize = detail::kWnafTableSize<Curve>;
  std::array<Point, kTableSize> odd_multiples;
  const Point p2 = p.dbl();
  odd_multiples[0] = p;
  for (std::size_t i = 1; i < kTableSize; ++i) {
    odd_multiples[i] = odd_multiples[i - 1] + p2;
  }
  std::array<std::array<AffinePoint, kTableSize>, D::kDimension> tables;
  batch_normalize(std::span<const Point>(odd_multiples), std::span<AffinePoint>(tables[0]));
  for (std::size_t j = 1; j < D::kDimension; ++j) {
    for (std::size_t i = 0; i < kTableSize; ++i) {
      tables[j][i] = D::endomorphism(tables[j - 1][i]);
    }
  }

  std::array<std::array<std::int8_t, D::kDigitBits + 1>, D::kDimension> naf{};
  std::array<std::size_t, D::kDimension> naf_length{};
  for (std::size_t j = 0; j < D::kDimension; ++j) {
    naf_length[j] = detail::wnaf<detail::kWnafWidth<Curve>, D::kDigitBits>(digits[j], naf[j]);
  }

  Point acc = Point::identity();
  for (std::size_t i = *std::max_element(naf_length.begin(), naf_length.end()); i-- > 0;) {
    acc = acc.dbl();
    for (std::size_t j = 0; j < D::kDimension; ++j) {
      int d = naf[j][i];
      if (d > 0) acc += tables[j][d >> 1];
      if (d < 0) acc += -tables[j][(-d) >> 1];
    }
  }
  return acc;
}

template <class Curve>
Jacobian<Curve> mul_ct(const Jacobian<Curve>& p, const ff::Fr& k) {
  using D = Decomposition<Curve>;
  using Point = Projective<Curve>;
  const auto digits = decompose_scalar<Curve>(k.to_canonical());

  // tables[j][i] = [i + 1][b^j]P.
  std::array<std::array<Point, detail::kCtTableSize>, D::kDimension> tables;
  const Point base = Point::from_jacobian(p);
  tables[0][0] = base;
  tables[0][1] = base.dbl();
  for (std::size_t i = 2; i < detail::kCtTableSize; ++i) tables[0][i] = tables[0][i - 1] + base;
  for (std::size_t j = 1; j < D::kDimension; ++j) {
    for (std::size_t i = 0; i < detail::kCtTableSize; ++i) {
      tables[j][i] = D::endomorphism(tables[j - 1][i]);
    }
  }

  // One more bit than the digits so that the last window's top bit is zero.
  constexpr std::size_t kWindows = (D::kDigitBits + 1 + detail::kCtWindow - 1) / detail::kCtWindow;
  Point acc = Point::identity();
  for (std::size_t w = kWindows; w-- > 0;) {
    if (w + 1 != kWindows) {
      for (unsigned i = 0; i < detail::kCtWindow; ++i) acc = acc.dbl();
    }
    for (std::size_t j = 0; j < D::kDimension; ++j) {
      detail::SignedDigit d = detail::booth_digit(digits[j], w);
      Point t = detail::ct_lookup<Curve>(tables[j], d.magnitude);
      t.Y = ct_select(d.negative, -t.Y, t.Y);
      acc += t;
    }
  }
  return acc.to_jacobian();
}

template <class Curve>
Jacobian<Curve> mul_vartime(const Affine<Curve>& p, const ff::Fr& k) {
  return mul_vartime(Jacobian<Curve>::from_affine(p), k);
}

template <class Curve>
Jacobian<Curve> mul_ct(const Affine<Curve>& p, const ff::Fr& k) {
  return mul_ct(Jacobian<Curve>::from_affine(p), k);
}

}  // namespace zkpipe::ec
