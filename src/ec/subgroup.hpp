// Prime-order subgroup membership and cofactor clearing.
//
// The membership tests are Scott's (eprint 2021/1130), proven for BLS12-381:
//   G1: P is in G1  iff  phi(P) = [-u^2]P
//   G2: P is in G2  iff  psi(P) = [u]P
// Each costs one or two multiplications by the 64-bit seed instead of one by the
// 255-bit r. tests/ec compares them with the direct [r]P = O on points inside and
// outside the subgroups.
#pragma once

#include "ec/affine.hpp"
#include "ec/endomorphism.hpp"
#include "ec/generators.hpp"
#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"

namespace zkpipe::ec {

// [|u|]P for any curve point (|u| is public: variable time is fine).
template <class Curve>
Jacobian<Curve> mul_by_seed_abs(const Jacobian<Curve>& p) {
  return mul_double_and_add(p, ff::Limbs<1>{kSeedAbs});
}

// [u]P.
template <class Curve>
Jacobian<Curve> mul_by_seed(const Jacobian<Curve>& p) {
  static_assert(kSeedIsNegative);
  return -mul_by_seed_abs(p);
}

// P must be on the curve; the identity is in the subgroup.
inline bool is_in_subgroup(const Affine<G1Curve>& p) {
  if (p.infinity) return true;
  const Jacobian<G1Curve> jp = Jacobian<G1Curve>::from_affine(p);
  const Jacobian<G1Curve> u2p = mul_by_seed_abs(mul_by_seed_abs(jp));  // [u^2]P
  return Jacobian<G1Curve>::from_affine(phi(p)) == -u2p;
}

inline bool is_in_subgroup(const Affine<G2Curve>& p) {
  if (p.infinity) return true;
  const Jacobian<G2Curve> jp = Jacobian<G2Curve>::from_affine(p);
  return Jacobian<G2Curve>::from_affine(psi(p)) == mul_by_seed(jp);
}

// Maps any point of E(Fp) into G1: [1 - u]P, the IETF hash-to-curve effective
// cofactor for G1 (the cofactor part of E(Fp) has exponent dividing 1 - u, so this
// is cheaper than multiplying by h1).
inline Jacobian<G1Curve> clear_cofactor(const Jacobian<G1Curve>& p) {
  return p + mul_by_seed_abs(p);  // 1 - u = 1 + |u|
}

// Maps any point of E'(Fp2) into G2 with Budroni and Pintore's psi formula for the
// IETF effective cofactor: [u^2 - u - 1]P + [u - 1]psi(P) + psi^2(2P).
inline Jacobian<G2Curve> clear_cofactor(const Jacobian<G2Curve>& p) {
  const Jacobian<G2Curve> up = mul_by_seed(p);
  const Jacobian<G2Curve> uup = mul_by_seed(up);
  const Jacobian<G2Curve> psi_p = psi(p);
  return uup - up - p + (mul_by_seed(psi_p) - psi_p) + psi(psi(p.dbl()));
}

}  // namespace zkpipe::ec
