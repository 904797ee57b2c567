// Fp2 = Fp[u] / (u^2 + 1), the field G2 lives over.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "ff/fp.hpp"

namespace zkpipe::ff {

struct Fp2 {
  Fp c0;  // real part
  Fp c1;  // coefficient of u

  static constexpr std::size_t kBytes = 2 * Fp::kBytes;
  static constexpr Fp kHalf = Fp::from_u64(2).inverse();

  static constexpr Fp2 zero() { return {}; }
  static constexpr Fp2 one() { return {Fp::one(), Fp::zero()}; }

  template <class Rng>
  static Fp2 random(Rng& rng) {
    Fp a = Fp::random(rng);
    return {a, Fp::random(rng)};
  }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  constexpr bool operator==(const Fp2&) const = default;

  constexpr Fp2 operator+(const Fp2& o) const { return {c0 + o.c0, c1 + o.c1}; }
  constexpr Fp2 operator-(const Fp2& o) const { return {c0 - o.c0, c1 - o.c1}; }
  constexpr Fp2 operator-() const { return {-c0, -c1}; }
  constexpr Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }

  // Karatsuba: three base-field products. With BMI2/ADX the products stay
  // unreduced and each coefficient takes one Montgomery reduction (two instead of
  // three); both paths give the same fully reduced result.
  [[gnu::always_inline]] constexpr Fp2 operator*(const Fp2& o) const {
#ifdef ZKPIPE_FF_X86_64
    if (!std::is_constant_evaluated() && kCpuHasBmi2Adx) return mul_lazy_bmi2_adx(o);
#endif
    return mul_karatsuba(o);
  }

  constexpr Fp2 mul_karatsuba(const Fp2& o) const {
    Fp v0 = c0 * o.c0;
    Fp v1 = c1 * o.c1;
    return {v0 - v1, (c0 + c1) * (o.c0 + o.c1) - v0 - v1};
  }

#ifdef ZKPIPE_FF_X86_64
  // Callable only where kCpuHasBmi2Adx holds (tests check it against mul_karatsuba).
  //   c1·R^2 = (a0 + a1)(b0 + b1) - a0·b0 - a1·b1 = a0·b1 + a1·b0 < 2p^2 < p·R,
  //   c0·R^2 = a0·b0 - a1·b1, plus p·R when negative, so also in [0, p·R);
  // both are inside the range mont_redc_adx accepts. The sums a0 + a1 < 2p stay
  // unreduced: the wide product only needs them below R.
  [[gnu::always_inline]] Fp2 mul_lazy_bmi2_adx(const Fp2& o) const {
    using Wide = Limbs<2 * Fp::kLimbs>;
    Fp::Repr sa;
    Fp::Repr sb;
    limbs_add(sa, c0.mont(), c1.mont());
    limbs_add(sb, o.c0.mont(), o.c1.mont());
    Wide aa = detail::mul_wide_adx<Fp::kLimbs>(c0.mont(), o.c0.mont());
    const Wide bb = detail::mul_wide_adx<Fp::kLimbs>(c1.mont(), o.c1.mont());
    Wide cc = detail::mul_wide_adx<Fp::kLimbs>(sa, sb);
    limbs_sub(cc, cc, aa);
    limbs_sub(cc, cc, bb);
    const u64 negative = limbs_sub(aa, aa, bb);
    add_modulus_to_high_half_if(aa, negative);
    return {Fp::from_mont(detail::mont_redc_adx<Fp::kLimbs, Fp::kModulus, Fp::kInv>(aa)),
            Fp::from_mont(detail::mont_redc_adx<Fp::kLimbs, Fp::kModulus, Fp::kInv>(cc))};
  }

  // Callable only where kCpuHasBmi2Adx holds (tests check it against square_complex).
  // The factors a + b < 2p, a - b + p < 2p and 2a < 2p stay unreduced: both
  // products are below 4p^2 < p·R, inside the range mont_redc_adx accepts.
  [[gnu::always_inline]] Fp2 square_lazy_bmi2_adx() const {
    Fp::Repr sum;
    Fp::Repr diff;
    Fp::Repr twice_a;
    limbs_add(sum, c0.mont(), c1.mont());
    limbs_add(diff, c0.mont(), Fp::kModulus);
    limbs_sub(diff, diff, c1.mont());
    limbs_add(twice_a, c0.mont(), c0.mont());
    const auto re = detail::mul_wide_adx<Fp::kLimbs>(sum, diff);
    const auto im = detail::mul_wide_adx<Fp::kLimbs>(twice_a, c1.mont());
    return {Fp::from_mont(detail::mont_redc_adx<Fp::kLimbs, Fp::kModulus, Fp::kInv>(re)),
            Fp::from_mont(detail::mont_redc_adx<Fp::kLimbs, Fp::kModulus, Fp::kInv>(im))};
  }
#endif

  // (a + bu)^2 = (a + b)(a - b) + 2ab·u: two multiplications. With BMI2/ADX the
  // factors stay unreduced and each product takes one Montgomery reduction.
  [[gnu::always_inline]] constexpr Fp2 square() const {
#ifdef ZKPIPE_FF_X86_64
    if (!std::is_constant_evaluated() && kCpuHasBmi2Adx) return square_lazy_bmi2_adx();
#endif
    return square_complex();
  }

  constexpr Fp2 square_complex() const {
    Fp ab = c0 * c1;
    return {(c0 + c1) * (c0 - c1), ab.dbl()};
  }

  constexpr Fp2 operator*(const Fp& s) const { return {c0 * s, c1 * s}; }

  constexpr Fp2& operator+=(const Fp2& o) { return *this = *this + o; }
  constexpr Fp2& operator-=(const Fp2& o) { return *this = *this - o; }
  constexpr Fp2& operator*=(const Fp2& o) { return *this = *this * o; }

  constexpr Fp2 conjugate() const { return {c0, -c1}; }

  // Frobenius x -> x^p is conjugation in Fp2 (u^p = -u since p ≡ 3 mod 4).
  constexpr Fp2 frobenius() const { return conjugate(); }

  // Multiplication by the sextic non-residue ξ = 1 + u used to build Fp6 and Fp12.
  constexpr Fp2 mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }

  constexpr Fp norm() const { return c0.square() + c1.square(); }

  // Inverse of zero is zero. Uses the base field's constant-time inverse.
  constexpr Fp2 inverse_ct() const {
    Fp t = norm().inverse_ct();
    return {c0 * t, -(c1 * t)};
  }

  constexpr Fp2 inverse() const {
    Fp t = norm().inverse();
    return {c0 * t, -(c1 * t)};
  }

  // x is a square in Fp2 exactly when its norm is a square in Fp.
  constexpr int legendre() const { return norm().legendre(); }

  // Square root for q = p^2 with p ≡ 3 (mod 4): "complex method" via the norm.
  // Returns nullopt when x is not a square.
  constexpr std::optional<Fp2> sqrt() const {
    if (c1.is_zero()) {
      if (auto r = c0.sqrt()) return Fp2{*r, Fp::zero()};
      // c0 is a non-residue in Fp, so -c0 is a residue: sqrt(c0) = sqrt(-c0)·u.
      auto r = (-c0).sqrt();
      return Fp2{Fp::zero(), *r};
    }
    auto n = norm().sqrt();
    if (!n) return std::nullopt;
    Fp t = (c0 + *n) * kHalf;
    auto a = t.sqrt();
    if (!a) {
      t = (c0 - *n) * kHalf;
      a = t.sqrt();
      if (!a) return std::nullopt;
    }
    // The branches above already depend on the value, so a variable-time inverse
    // costs nothing in secrecy here.
    Fp b = c1 * (a->dbl()).inverse();
    Fp2 r{*a, b};
    if (!(r.square() == *this)) return std::nullopt;
    return r;
  }

  // zcash ordering: compare the imaginary part first, the real part if it is zero.
  constexpr bool is_lexicographically_largest() const {
    if (!c1.is_zero()) return c1.is_lexicographically_largest();
    return c0.is_lexicographically_largest();
  }

 private:
  // w += p·R when flag is 1, branch-free (the flag may depend on secret values).
  static constexpr void add_modulus_to_high_half_if(Limbs<2 * Fp::kLimbs>& w, u64 flag) {
    const u64 mask = u64{0} - flag;
    u64 carry = 0;
    for (std::size_t i = 0; i < Fp::kLimbs; ++i) {
      w[Fp::kLimbs + i] = add_carry(w[Fp::kLimbs + i], Fp::kModulus[i] & mask, carry);
    }
  }
};

}  // namespace zkpipe::ff
