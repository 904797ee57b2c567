// Fp6 = Fp2[v] / (v^3 - ξ) with ξ = 1 + u, the middle floor of the pairing tower.
#pragma once

#include "ff/fp2.hpp"
#include "ff/tower_frobenius.hpp"

namespace zkpipe::ff {

struct Fp6 {
  Fp2 c0;  // coefficient of 1
  Fp2 c1;  // coefficient of v
  Fp2 c2;  // coefficient of v^2

  static constexpr Fp6 zero() { return {}; }
  static constexpr Fp6 one() { return {Fp2::one(), Fp2::zero(), Fp2::zero()}; }

  template <class Rng>
  static Fp6 random(Rng& rng) {
    Fp2 a = Fp2::random(rng);
    Fp2 b = Fp2::random(rng);
    return {a, b, Fp2::random(rng)};
  }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  constexpr bool operator==(const Fp6&) const = default;

  constexpr Fp6 operator+(const Fp6& o) const { return {c0 + o.c0, c1 + o.c1, c2 + o.c2}; }
  constexpr Fp6 operator-(const Fp6& o) const { return {c0 - o.c0, c1 - o.c1, c2 - o.c2}; }
  constexpr Fp6 operator-() const { return {-c0, -c1, -c2}; }
  constexpr Fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  // Karatsuba over the three coefficients: six Fp2 multiplications instead of nine.
  constexpr Fp6 operator*(const Fp6& o) const {
    Fp2 v0 = c0 * o.c0;
    Fp2 v1 = c1 * o.c1;
    Fp2 v2 = c2 * o.c2;
    Fp2 r0 = ((c1 + c2) * (o.c1 + o.c2) - v1 - v2).mul_by_nonresidue() + v0;
    Fp2 r1 = (c0 + c1) * (o.c0 + o.c1) - v0 - v1 + v2.mul_by_nonresidue();
    Fp2 r2 = (c0 + c2) * (o.c0 + o.c2) - v0 - v2 + v1;
    return {r0, r1, r2};
  }

  // Chung–Hasan SQR2: two multiplications and three squarings in Fp2.
  constexpr Fp6 square() const {
    Fp2 s0 = c0.square();
    Fp2 s1 = (c0 * c1).dbl();
    Fp2 s2 = (c0 - c1 + c2).square();
    Fp2 s3 = (c1 * c2).dbl();
    Fp2 s4 = c2.square();
    return {s0 + s3.mul_by_nonresidue(), s1 + s4.mul_by_nonresidue(), s1 + s2 + s3 - s0 - s4};
  }

  constexpr Fp6 operator*(const Fp2& s) const { return {c0 * s, c1 * s, c2 * s}; }

  constexpr Fp6& operator+=(const Fp6& o) { return *this = *this + o; }
  constexpr Fp6& operator-=(const Fp6& o) { return *this = *this - o; }
  constexpr Fp6& operator*=(const Fp6& o) { return *this = *this * o; }

  // Multiplication by v, the non-residue that builds Fp12 over Fp6 (v^3 = ξ).
  constexpr Fp6 mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }

  // Multiplication by b0 + b1·v (a line's shape inside one Fp6 half): five Fp2 products.
  constexpr Fp6 mul_by_01(const Fp2& b0, const Fp2& b1) const {
    Fp2 v0 = c0 * b0;
    Fp2 v1 = c1 * b1;
    Fp2 r0 = ((c1 + c2) * b1 - v1).mul_by_nonresidue() + v0;
    Fp2 r1 = (c0 + c1) * (b0 + b1) - v0 - v1;
    Fp2 r2 = (c0 + c2) * b0 - v0 + v1;
    return {r0, r1, r2};
  }

  // Multiplication by b1·v: three Fp2 products.
  constexpr Fp6 mul_by_1(const Fp2& b1) const {
    return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1};
  }

  // Through the norm to Fp2: one Fp2 inversion.
  constexpr Fp6 inverse() const {
    Fp2 t0 = c0.square() - (c1 * c2).mul_by_nonresidue();
    Fp2 t1 = c2.square().mul_by_nonresidue() - c0 * c1;
    Fp2 t2 = c1.square() - c0 * c2;
    Fp2 norm = c0 * t0 + (c2 * t1 + c1 * t2).mul_by_nonresidue();
    Fp2 n_inv = norm.inverse();
    return {t0 * n_inv, t1 * n_inv, t2 * n_inv};
  }

  // x -> x^(p^k): conjugate the Fp2 coefficients k times, then v^(p^k) = v·γ_k^2
  // with γ_k = ξ^((p^k - 1)/6) (see tower_frobenius.hpp).
  Fp6 frobenius(unsigned k) const {
    const TowerFrobenius& f = tower_frobenius();
    unsigned j = k % 12;
    return {conjugate_times(c0, k), conjugate_times(c1, k) * f.gamma[j][2],
            conjugate_times(c2, k) * f.gamma[j][4]};
  }

 private:
  static constexpr Fp2 conjugate_times(const Fp2& a, unsigned k) {
    return k % 2 == 0 ? a : a.conjugate();
  }
};

}  // namespace zkpipe::ff
