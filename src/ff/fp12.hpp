// Fp12 = Fp6[w] / (w^2 - v), the target field of the BLS12-381 pairing.
//
// Seen as Fp2[w] / (w^6 - ξ), an element is Σ a_i·w^i with c0 holding the even
// powers (w^0, w^2, w^4) and c1 the odd ones (w^1, w^3, w^5).
#pragma once

#include "ff/fp6.hpp"
#include "ff/limbs.hpp"

namespace zkpipe::ff {

struct Fp12 {
  Fp6 c0;
  Fp6 c1;

  static constexpr Fp12 zero() { return {}; }
  static constexpr Fp12 one() { return {Fp6::one(), Fp6::zero()}; }

  template <class Rng>
  static Fp12 random(Rng& rng) {
    Fp6 a = Fp6::random(rng);
    return {a, Fp6::random(rng)};
  }

  constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
  constexpr bool operator==(const Fp12&) const = default;

  constexpr Fp12 operator+(const Fp12& o) const { return {c0 + o.c0, c1 + o.c1}; }
  constexpr Fp12 operator-(const Fp12& o) const { return {c0 - o.c0, c1 - o.c1}; }
  constexpr Fp12 operator-() const { return {-c0, -c1}; }

  // Karatsuba: three Fp6 multiplications.
  constexpr Fp12 operator*(const Fp12& o) const {
    Fp6 aa = c0 * o.c0;
    Fp6 bb = c1 * o.c1;
    Fp6 cross = (c0 + c1) * (o.c0 + o.c1) - aa - bb;
    return {aa + bb.mul_by_nonresidue(), cross};
  }

  // Complex squaring: two Fp6 multiplications.
  constexpr Fp12 square() const {
    Fp6 ab = c0 * c1;
    Fp6 t = (c0 + c1) * (c0 + c1.mul_by_nonresidue());
    return {t - ab - ab.mul_by_nonresidue(), ab.dbl()};
  }

  constexpr Fp12& operator*=(const Fp12& o) { return *this = *this * o; }

  // x -> x^(p^6). On the cyclotomic subgroup (every pairing value) this is the inverse.
  constexpr Fp12 conjugate() const { return {c0, -c1}; }

  constexpr Fp12 inverse() const {
    Fp6 norm = c0.square() - c1.square().mul_by_nonresidue();
    Fp6 n_inv = norm.inverse();
    return {c0 * n_inv, -(c1 * n_inv)};
  }

  // Multiplication by a line d0 + d1·w^2 + d4·w^3 (the M-type twist's sparse shape:
  // Fp12 slots 0, 1 and 4): thirteen Fp2 multiplications instead of eighteen.
  constexpr Fp12 mul_by_014(const Fp2& d0, const Fp2& d1, const Fp2& d4) const {
    Fp6 aa = c0.mul_by_01(d0, d1);
    Fp6 bb = c1.mul_by_1(d4);
    Fp6 cross = (c0 + c1).mul_by_01(d0, d1 + d4) - aa - bb;
    return {aa + bb.mul_by_nonresidue(), cross};
  }

  // x -> x^(p^k): each coefficient a_i of w^i becomes conj^k(a_i)·γ_k^i.
  Fp12 frobenius(unsigned k) const {
    const auto& g = tower_frobenius().gamma[k % 12];
    auto conj = [k](const Fp2& a) { return k % 2 == 0 ? a : a.conjugate(); };
    return {{conj(c0.c0), conj(c0.c1) * g[2], conj(c0.c2) * g[4]},
            {conj(c1.c0) * g[1], conj(c1.c1) * g[3], conj(c1.c2) * g[5]}};
  }

  // Granger–Scott squaring, valid only on the cyclotomic subgroup (x^(p^4 - p^2 + 1) = 1,
  // which holds after the easy part of the final exponentiation). Over Fp4 = Fp2[t]/(t^2 - ξ)
  // with t = w^3, x = A + B·w + C·w^2 and
  //   A' = 3A^2 - 2·conj(A),  B' = 3t·C^2 + 2·conj(B),  C' = 3B^2 - 2·conj(C).
  constexpr Fp12 cyclotomic_square() const {
    auto [a0, a1] = fp4_square(c0.c0, c1.c1);
    auto [b0, b1] = fp4_square(c1.c0, c0.c2);
    auto [s0, s1] = fp4_square(c0.c1, c1.c2);
    auto triple_minus_double = [](const Fp2& sq, const Fp2& old) { return (sq - old).dbl() + sq; };
    auto triple_plus_double = [](const Fp2& sq, const Fp2& old) { return (sq + old).dbl() + sq; };
    Fp12 r;
    r.c0.c0 = triple_minus_double(a0, c0.c0);
    r.c1.c1 = triple_plus_double(a1, c1.c1);
    r.c1.c0 = triple_plus_double(s1.mul_by_nonresidue(), c1.c0);
    r.c0.c2 = triple_minus_double(s0, c0.c2);
    r.c0.c1 = triple_minus_double(b0, c0.c1);
    r.c1.c2 = triple_plus_double(b1, c1.c2);
    return r;
  }

  // this^e for a public exponent.
  template <std::size_t N>
  constexpr Fp12 pow(const Limbs<N>& e) const {
    Fp12 r = one();
    for (std::size_t i = limbs_bit_length(e); i-- > 0;) {
      r = r.square();
      if (limbs_bit(e, i)) r *= *this;
    }
    return r;
  }

 private:
  struct Fp4 {
    Fp2 x;
    Fp2 y;
  };

  // (x + y·t)^2 = (x^2 + ξ·y^2) + ((x + y)^2 - x^2 - y^2)·t: three Fp2 squarings.
  static constexpr Fp4 fp4_square(const Fp2& x, const Fp2& y) {
    Fp2 xx = x.square();
    Fp2 yy = y.square();
    return {xx + yy.mul_by_nonresidue(), (x + y).square() - xx - yy};
  }
};

}  // namespace zkpipe::ff
