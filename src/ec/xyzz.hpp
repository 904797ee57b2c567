// Extended Jacobian "XYZZ" coordinates: (X, Y, ZZ, ZZZ) represents
// (X/ZZ, Y/ZZZ) with ZZ^3 = ZZZ^2; ZZ = 0 is infinity. Cheapest mixed addition
// for bucket accumulation in MSMs (formulas madd-2008-s, add-2008-s,
// dbl-2008-s-1, mdbl-2008-s-1 from the Explicit-Formulas Database, a = 0).
#pragma once

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"

namespace zkpipe::ec {

template <class Curve>
struct Xyzz {
  using Field = typename Curve::Field;
  using AffinePoint = Affine<Curve>;

  Field X{};
  Field Y = Field::one();
  Field ZZ{};
  Field ZZZ{};

  static constexpr Xyzz identity() { return {}; }

  static constexpr Xyzz from_affine(const AffinePoint& p) {
    if (p.infinity) return identity();
    return {p.x, p.y, Field::one(), Field::one()};
  }

  constexpr bool is_identity() const { return ZZ.is_zero(); }

  constexpr AffinePoint to_affine() const {
    if (is_identity()) return AffinePoint::identity();
    Field zzz_inv = ZZZ.inverse();
    Field z_inv = zzz_inv * ZZ;  // 1/Z
    return AffinePoint::from_xy(X * z_inv.square(), Y * zzz_inv);
  }

  // Without an inversion: take Z' = ZZ·ZZZ, so X' = X·ZZ·ZZZ^2 and Y' = Y·ZZ^3·ZZZ^2.
  constexpr Jacobian<Curve> to_jacobian() const {
    if (is_identity()) return Jacobian<Curve>::identity();
    Field zzz2 = ZZZ.square();
    Field zz3 = ZZ.square() * ZZ;
    return {X * ZZ * zzz2, Y * zz3 * zzz2, ZZ * ZZZ};
  }

  constexpr Xyzz operator-() const { return {X, -Y, ZZ, ZZZ}; }

  constexpr Xyzz dbl() const {
    if (is_identity()) return *this;
    Field u = Y.dbl();
    Field v = u.square();
    Field w = u * v;
    Field s = X * v;
    Field xx = X.square();
    Field m = xx.dbl() + xx;
    Xyzz r;
    r.X = m.square() - s.dbl();
    r.Y = m * (s - r.X) - w * Y;
    r.ZZ = v * ZZ;
    r.ZZZ = w * ZZZ;
    return r;
  }

  constexpr Xyzz operator+(const AffinePoint& q) const {
    if (q.infinity) return *this;
    if (is_identity()) return from_affine(q);
    Field p = q.x * ZZ - X;
    Field r = q.y * ZZZ - Y;
    if (p.is_zero()) return r.is_zero() ? from_affine(q).dbl() : identity();
    Field pp = p.square();
    Field ppp = p * pp;
    Field qq = X * pp;
    Xyzz out;
    out.X = r.square() - ppp - qq.dbl();
    out.Y = r * (qq - out.X) - Y * ppp;
    out.ZZ = ZZ * pp;
    out.ZZZ = ZZZ * ppp;
    return out;
  }

  constexpr Xyzz operator+(const Xyzz& o) const {
    if (is_identity()) return o;
    if (o.is_identity()) return *this;
    Field u1 = X * o.ZZ;
    Field u2 = o.X * ZZ;
    Field s1 = Y * o.ZZZ;
    Field s2 = o.Y * ZZZ;
    Field p = u2 - u1;
    Field r = s2 - s1;
    if (p.is_zero()) return r.is_zero() ? dbl() : identity();
    Field pp = p.square();
    Field ppp = p * pp;
    Field qq = u1 * pp;
    Xyzz out;
    out.X = r.square() - ppp - qq.dbl();
    out.Y = r * (qq - out.X) - s1 * ppp;
    out.ZZ = ZZ * o.ZZ * pp;
    out.ZZZ = ZZZ * o.ZZZ * ppp;
    return out;
  }

  constexpr Xyzz& operator+=(const AffinePoint& q) { return *this = *this + q; }
  constexpr Xyzz& operator+=(const Xyzz& o) { return *this = *this + o; }
};

}  // namespace zkpipe::ec
