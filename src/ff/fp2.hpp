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

  // Karatsuba: three base-field multiplications.
  constexpr Fp2 operator*(const Fp2& o) const {
    Fp v0 = c0 * o.c0;
    Fp v1 = c1 * o.c1;
    return {v0 - v1, (c0 + c1) * (o.c0 + o.c1) - v0 - v1};
  }

  // (a + bu)^2 = (a + b)(a - b) + 2ab·u: two multiplications.
  constexpr Fp2 square() const {
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
};

}  // namespace zkpipe::ff
