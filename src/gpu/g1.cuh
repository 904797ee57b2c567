// G1 of BLS12-381 (y² = x³ + 4 over Fp) on the device, with the formulas of the
// host's ec::Xyzz (Explicit-Formulas Database madd-2008-s, add-2008-s, dbl-2008-s-1,
// a = 0), so the device and the host agree on every special case.
//
// Device affine points have no infinity flag: (0, 0) is not on the curve, so it
// stands for the point at infinity.
#pragma once

#include "gpu/field.cuh"

namespace zkpipe::gpu {

struct G1Affine {
  Fp x;
  Fp y;

  __device__ __forceinline__ bool is_identity() const { return x.is_zero() && y.is_zero(); }
  __device__ __forceinline__ G1Affine operator-() const {
    return is_identity() ? *this : G1Affine{x, -y};
  }
};

static_assert(sizeof(G1Affine) == 96);

// (X, Y, ZZ, ZZZ) is (X/ZZ, Y/ZZZ); ZZ = 0 is infinity.
struct G1Xyzz {
  Fp X;
  Fp Y;
  Fp ZZ;
  Fp ZZZ;

  __device__ __forceinline__ static G1Xyzz identity() {
    return {Fp::zero(), Fp::one(), Fp::zero(), Fp::zero()};
  }

  __device__ __forceinline__ static G1Xyzz from_affine(const G1Affine& p) {
    if (p.is_identity()) return identity();
    return {p.x, p.y, Fp::one(), Fp::one()};
  }

  __device__ __forceinline__ bool is_identity() const { return ZZ.is_zero(); }

  __device__ __forceinline__ G1Xyzz operator-() const { return {X, -Y, ZZ, ZZZ}; }

  __device__ G1Xyzz dbl() const {
    if (is_identity()) return *this;
    const Fp u = Y.dbl();
    const Fp v = u.square();
    const Fp w = u * v;
    const Fp s = X * v;
    const Fp xx = X.square();
    const Fp m = xx.dbl() + xx;
    G1Xyzz r;
    r.X = m.square() - s.dbl();
    r.Y = m * (s - r.X) - w * Y;
    r.ZZ = v * ZZ;
    r.ZZZ = w * ZZZ;
    return r;
  }

  __device__ G1Xyzz add_affine(const G1Affine& q) const {
    if (q.is_identity()) return *this;
    if (is_identity()) return from_affine(q);
    const Fp p = q.x * ZZ - X;
    const Fp r = q.y * ZZZ - Y;
    if (p.is_zero()) return r.is_zero() ? from_affine(q).dbl() : identity();
    const Fp pp = p.square();
    const Fp ppp = p * pp;
    const Fp qq = X * pp;
    G1Xyzz out;
    out.X = r.square() - ppp - qq.dbl();
    out.Y = r * (qq - out.X) - Y * ppp;
    out.ZZ = ZZ * pp;
    out.ZZZ = ZZZ * ppp;
    return out;
  }

  __device__ G1Xyzz operator+(const G1Xyzz& o) const {
    if (is_identity()) return o;
    if (o.is_identity()) return *this;
    const Fp u1 = X * o.ZZ;
    const Fp u2 = o.X * ZZ;
    const Fp s1 = Y * o.ZZZ;
    const Fp s2 = o.Y * ZZZ;
    const Fp p = u2 - u1;
    const Fp r = s2 - s1;
    if (p.is_zero()) return r.is_zero() ? dbl() : identity();
    const Fp pp = p.square();
    const Fp ppp = p * pp;
    const Fp qq = u1 * pp;
    G1Xyzz out;
    out.X = r.square() - ppp - qq.dbl();
    out.Y = r * (qq - out.X) - s1 * ppp;
    out.ZZ = ZZ * o.ZZ * pp;
    out.ZZZ = ZZZ * o.ZZZ * ppp;
    return out;
  }

  // k·this for a small public k, by double-and-add from the top bit.
  __device__ G1Xyzz mul_small(u32 k) const {
    G1Xyzz acc = identity();
    for (int bit = 31 - __clz(k | 1); bit >= 0; --bit) {
      acc = acc.dbl();
      if ((k >> bit) & 1) acc = acc + *this;
    }
    return k == 0 ? identity() : acc;
  }
};

static_assert(sizeof(G1Xyzz) == 192);

}  // namespace zkpipe::gpu
