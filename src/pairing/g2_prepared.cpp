#include "pairing/g2_prepared.hpp"

#include "pairing/bls12_381_params.hpp"

namespace zkpipe::pairing {

namespace {

using ff::Fp2;

// T in homogeneous projective coordinates: (X, Y, Z) represents (X/Z, Y/Z). No
// inversions in the loop, and both steps below produce their line for free.
struct G2Homogeneous {
  Fp2 X;
  Fp2 Y;
  Fp2 Z;
};

// T <- 2T, returning the tangent line at T. The twist is y^2 = x^3 + b' with
// b' = 4ξ. Coordinates are scaled by 4 against the textbook formulas so that no
// halving is needed:
//   X3 = 2XY(B - 3E), Y3 = (B + 3E)^2 - 12E^2, Z3 = 4B·2YZ, with B = Y^2, E = 3b'Z^2.
// The tangent, scaled by -2YZ^2 in the untwisted picture, is
//   (E - B) + 3X^2·x_P·w^2 - 2YZ·y_P·w^3.
LineCoefficients double_step(G2Homogeneous& t) {
  Fp2 b = t.Y.square();
  Fp2 c = t.Z.square();
  Fp2 e = (c.dbl() + c).dbl().dbl().mul_by_nonresidue();  // 3·4ξ·Z^2
  Fp2 f = e.dbl() + e;
  Fp2 h = (t.Y + t.Z).square() - b - c;  // 2YZ
  Fp2 xx = t.X.square();
  LineCoefficients line{e - b, xx.dbl() + xx, -h};

  Fp2 e2 = e.square();
  t.X = (t.X * t.Y).dbl() * (b - f);
  t.Y = (b + f).square() - (e2.dbl() + e2).dbl().dbl();
  t.Z = (b * h).dbl().dbl();
  return line;
}

// T <- T + Q for an affine Q ≠ ±T, returning the chord through T and Q. With
// θ = Y - y_Q·Z and λ = X - x_Q·Z (the slope is θ/λ), the chord scaled by λ is
//   (θ·x_Q - λ·y_Q) - θ·x_P·w^2 + λ·y_P·w^3.
LineCoefficients add_step(G2Homogeneous& t, const G2Affine& q) {
  Fp2 theta = t.Y - q.y * t.Z;
  Fp2 lambda = t.X - q.x * t.Z;
  Fp2 c = theta.square();
  Fp2 d = lambda.square();
  Fp2 e = lambda * d;
  Fp2 f = t.Z * c;
  Fp2 g = t.X * d;
  Fp2 h = e + f - g.dbl();
  LineCoefficients line{theta * q.x - lambda * q.y, -theta, lambda};

  t.X = lambda * h;
  t.Y = theta * (g - h) - e * t.Y;
  t.Z = t.Z * e;
  return line;
}

}  // namespace

G2Prepared::G2Prepared(const G2Affine& q) {
  if (q.is_identity()) return;
  G2Homogeneous t{q.x, q.y, Fp2::one()};
  lines_.reserve(2 * kAbsXBits);
  for (int i = kAbsXBits - 2; i >= 0; --i) {
    lines_.push_back(double_step(t));
    if ((kAbsX >> i) & 1) lines_.push_back(add_step(t, q));
  }
}

}  // namespace zkpipe::pairing
