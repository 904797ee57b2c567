// Jacobian coordinates: (X, Y, Z) represents (X/Z^2, Y/Z^3); Z = 0 is infinity.
// Formulas for a = 0 from the Explicit-Formulas Database (dbl-2009-l,
// add-2007-bl, madd-2007-bl).
#pragma once

#include "ec/affine.hpp"

namespace zkpipe::ec {

template <class Curve>
struct Jacobian {
  using Field = typename Curve::Field;
  using AffinePoint = Affine<Curve>;

  Field X{};
  Field Y = Field::one();
  Field Z{};

  static constexpr Jacobian identity() { return {}; }

  static constexpr Jacobian from_affine(const AffinePoint& p) {
    if (p.infinity) return identity();
    return {p.x, p.y, Field::one()};
  }

  constexpr bool is_identity() const { return Z.is_zero(); }

  constexpr AffinePoint to_affine() const {
    if (is_identity()) return AffinePoint::identity();
    Field zi = Z.inverse();
    Field zi2 = zi.square();
    return AffinePoint::from_xy(X * zi2, Y * zi2 * zi);
  }

  // Same point, whatever the representatives.
  constexpr bool operator==(const Jacobian& o) const {
    if (is_identity() || o.is_identity()) return is_identity() == o.is_identity();
    Field z1z1 = Z.square();
    Field z2z2 = o.Z.square();
    return X * z2z2 == o.X * z1z1 && Y * z2z2 * o.Z == o.Y * z1z1 * Z;
  }

  constexpr Jacobian operator-() const { return {X, -Y, Z}; }

  constexpr Jacobian dbl() const {
    if (is_identity()) return *this;
    Field a = X.square();
    Field b = Y.square();
    Field c = b.square();
    Field d = ((X + b).square() - a - c).dbl();
    Field e = a.dbl() + a;
    Field f = e.square();
    Jacobian r;
    r.X = f - d.dbl();
    r.Y = e * (d - r.X) - c.dbl().dbl().dbl();
    r.Z = (Y * Z).dbl();
    return r;
  }

  constexpr Jacobian operator+(const Jacobian& o) const {
    if (is_identity()) return o;
    if (o.is_identity()) return *this;
    Field z1z1 = Z.square();
    Field z2z2 = o.Z.square();
    Field u1 = X * z2z2;
    Field u2 = o.X * z1z1;
    Field s1 = Y * o.Z * z2z2;
    Field s2 = o.Y * Z * z1z1;
    Field h = u2 - u1;
    Field r = (s2 - s1).dbl();
    if (h.is_zero()) return r.is_zero() ? dbl() : identity();
    Field i = h.dbl().square();
    Field j = h * i;
    Field v = u1 * i;
    Jacobian out;
    out.X = r.square() - j - v.dbl();
    out.Y = r * (v - out.X) - (s1 * j).dbl();
    out.Z = ((Z + o.Z).square() - z1z1 - z2z2) * h;
    return out;
  }

  // Mixed addition with an affine point (its Z is 1).
  constexpr Jacobian operator+(const AffinePoint& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    Field z1z1 = Z.square();
    Field u2 = q.x * z1z1;
    Field s2 = q.y * Z * z1z1;
    Field h = u2 - X;
    Field r = (s2 - Y).dbl();
    if (h.is_zero()) return r.is_zero() ? dbl() : identity();
    Field hh = h.square();
    Field i = hh.dbl().dbl();
    Field j = h * i;
    Field v = X * i;
    Jacobian out;
    out.X = r.square() - j - v.dbl();
    out.Y = r * (v - out.X) - (Y * j).dbl();
    out.Z = (Z + h).square() - z1z1 - hh;
    return out;
  }

  constexpr Jacobian operator-(const Jacobian& o) const { return *this + (-o); }
  constexpr Jacobian& operator+=(const Jacobian& o) { return *this = *this + o; }
  constexpr Jacobian& operator+=(const AffinePoint& q) { return *this = *this + q; }
};

}  // namespace zkpipe::ec
