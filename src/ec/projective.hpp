// Homogeneous projective coordinates: (X : Y : Z) represents (X/Z, Y/Z); the
// identity is (0 : 1 : 0). The addition and doubling are the complete formulas of
// Renes, Costello and Batina (2015, algorithms 7 and 9 for a = 0): one sequence of
// field operations for every input, identity and doubling included, which is what
// constant-time scalar multiplication needs.
#pragma once

#include "ec/affine.hpp"
#include "ec/ct_select.hpp"
#include "ec/jacobian.hpp"

namespace zkpipe::ec {

template <class Curve>
struct Projective {
  using Field = typename Curve::Field;
  using AffinePoint = Affine<Curve>;

  Field X{};
  Field Y = Field::one();
  Field Z{};

  static constexpr Projective identity() { return {}; }

  static constexpr Projective from_affine(const AffinePoint& p) {
    if (p.infinity) return identity();
    return {p.x, p.y, Field::one()};
  }

  // Jacobian (X, Y, Z) is the affine (X/Z^2, Y/Z^3) = projective (XZ : Y : Z^3).
  static constexpr Projective from_jacobian(const Jacobian<Curve>& p) {
    if (p.is_identity()) return identity();
    return {p.X * p.Z, p.Y, p.Z.square() * p.Z};
  }

  // Projective (X : Y : Z) is Jacobian (XZ, YZ^2, Z). Branch-free: an identity input
  // gives Z = 0, which Jacobian reads as its identity.
  constexpr Jacobian<Curve> to_jacobian() const { return {X * Z, Y * Z.square(), Z}; }

  constexpr bool is_identity() const { return Z.is_zero(); }

  constexpr bool operator==(const Projective& o) const {
    if (is_identity() || o.is_identity()) return is_identity() == o.is_identity();
    return X * o.Z == o.X * Z && Y * o.Z == o.Y * Z;
  }

  constexpr Projective operator-() const { return {X, -Y, Z}; }

  constexpr Projective operator+(const Projective& o) const {
    Field t0 = X * o.X;
    Field t1 = Y * o.Y;
    Field t2 = Z * o.Z;
    Field t3 = (X + Y) * (o.X + o.Y) - (t0 + t1);
    Field t4 = (Y + Z) * (o.Y + o.Z) - (t1 + t2);
    Field y3 = (X + Z) * (o.X + o.Z) - (t0 + t2);
    Field x3 = t0.dbl();
    t0 = x3 + t0;
    t2 = Curve::mul_by_3b(t2);
    Field z3 = t1 + t2;
    t1 = t1 - t2;
    y3 = Curve::mul_by_3b(y3);
    Projective r;
    r.X = t3 * t1 - t4 * y3;
    r.Y = y3 * t0 + t1 * z3;
    r.Z = z3 * t4 + t0 * t3;
    return r;
  }

  constexpr Projective dbl() const {
    Field t0 = Y.square();
    Field z3 = t0.dbl().dbl().dbl();
    Field t1 = Y * Z;
    Field t2 = Curve::mul_by_3b(Z.square());
    Field x3 = t2 * z3;
    Field y3 = t0 + t2;
    z3 = t1 * z3;
    t2 = t2.dbl() + t2;
    t0 = t0 - t2;
    y3 = t0 * y3 + x3;
    Projective r;
    r.X = (t0 * (X * Y)).dbl();
    r.Y = y3;
    r.Z = z3;
    return r;
  }

  constexpr Projective operator-(const Projective& o) const { return *this + (-o); }
  constexpr Projective& operator+=(const Projective& o) { return *this = *this + o; }
};

// mask all ones -> a, mask zero -> b.
template <class Curve>
Projective<Curve> ct_select(ff::u64 mask, const Projective<Curve>& a, const Projective<Curve>& b) {
  return {ct_select(mask, a.X, b.X), ct_select(mask, a.Y, b.Y), ct_select(mask, a.Z, b.Z)};
}

}  // namespace zkpipe::ec
