// The efficient endomorphisms of BLS12-381, used by GLV/GLS scalar multiplication
// and by the fast subgroup checks.
//
// G1: phi(x, y) = (beta * x, y) with beta a cube root of unity in Fp. With the beta
// below, phi acts on G1 as multiplication by -u^2 (u the curve seed).
//
// G2: psi = untwist o Frobenius o twist, psi(x, y) = (conj(x) * cx, conj(y) * cy)
// with cx = 1 / xi^((p-1)/3) and cy = 1 / xi^((p-1)/2), xi = 1 + u the twist's
// non-residue. psi acts on G2 as multiplication by p, which is u mod r.
//
// Both maps are coordinate-wise, so they apply unchanged to Jacobian and projective
// coordinates (Z is left alone, or conjugated for psi).
#pragma once

#include "ec/affine.hpp"
#include "ec/curves.hpp"
#include "ec/hex_constant.hpp"
#include "ec/jacobian.hpp"
#include "ec/projective.hpp"

namespace zkpipe::ec {

// A primitive cube root of unity in Fp; tests/ec checks beta^3 = 1 and that phi is
// multiplication by -u^2 on G1.
inline constexpr Fp kBeta = field_from_hex<Fp>(
    "5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe");

constexpr Affine<G1Curve> phi(const Affine<G1Curve>& p) {
  if (p.infinity) return p;
  return Affine<G1Curve>::from_xy(p.x * kBeta, p.y);
}

constexpr Jacobian<G1Curve> phi(const Jacobian<G1Curve>& p) { return {p.X * kBeta, p.Y, p.Z}; }

constexpr Projective<G1Curve> phi(const Projective<G1Curve>& p) { return {p.X * kBeta, p.Y, p.Z}; }

struct PsiCoefficients {
  Fp2 cx;
  Fp2 cy;
};

// Computed once from their definition (two exponentiations), then shared read-only.
const PsiCoefficients& psi_coefficients();

inline Affine<G2Curve> psi(const Affine<G2Curve>& p) {
  if (p.infinity) return p;
  const PsiCoefficients& c = psi_coefficients();
  return Affine<G2Curve>::from_xy(p.x.frobenius() * c.cx, p.y.frobenius() * c.cy);
}

inline Jacobian<G2Curve> psi(const Jacobian<G2Curve>& p) {
  const PsiCoefficients& c = psi_coefficients();
  return {p.X.frobenius() * c.cx, p.Y.frobenius() * c.cy, p.Z.frobenius()};
}

inline Projective<G2Curve> psi(const Projective<G2Curve>& p) {
  const PsiCoefficients& c = psi_coefficients();
  return {p.X.frobenius() * c.cx, p.Y.frobenius() * c.cy, p.Z.frobenius()};
}

}  // namespace zkpipe::ec
