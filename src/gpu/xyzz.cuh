// Short-Weierstrass points with a = 0 on the device, generic over the coordinate
// field (Fp for G1, Fp2 for G2), with the formulas of the host's ec::Xyzz
// (Explicit-Formulas Database madd-2008-s, add-2008-s, dbl-2008-s-1, a = 0; b never
// enters them), so the device and the host agree on every special case and on the
// XYZZ representative itself.
//
// Device affine points have no infinity flag: (0, 0) is on neither curve
// (b ≠ 0), so it stands for the point at infinity.
//
// Inlined, each addition is a few thousand instructions (an Fp2 product is three Fp
// ones), and nvcc compiles it anew into every kernel that adds: the G2 MSM's file
// took cicc and ptxas almost six minutes per architecture. So doubling, which only
// the rare equal-points case of an addition and small multiples take, is always a
// call, and sums off the hot paths call outlined_add; the MSM's hot loop (bucket
// accumulation, which also sums the ones) inlines its additions, since a call costs
// a G2 addition about as much again (its 384-byte points pass through local memory:
// docs/BENCHMARKS.md).
#pragma once

#include "gpu/field.cuh"

namespace zkpipe::gpu {

// p + q and p + q (affine) compiled once per file, out of line, for sums off the hot
// paths.
template <class P>
__device__ __noinline__ P outlined_add(const P& p, const P& q);
template <class P>
__device__ __noinline__ P outlined_add_affine(const P& p, const typename P::Affine& q);

template <class F>
struct AffinePoint {
  F x;
  F y;

  __device__ __forceinline__ bool is_identity() const { return x.is_zero() && y.is_zero(); }
  __device__ __forceinline__ AffinePoint operator-() const {
    return is_identity() ? *this : AffinePoint{x, -y};
  }
};

// (X, Y, ZZ, ZZZ) is (X/ZZ, Y/ZZZ); ZZ = 0 is infinity.
template <class F>
struct XyzzPoint {
  using Affine = AffinePoint<F>;

  F X;
  F Y;
  F ZZ;
  F ZZZ;

  __device__ __forceinline__ static XyzzPoint identity() {
    return {F::zero(), F::one(), F::zero(), F::zero()};
  }

  __device__ __forceinline__ static XyzzPoint from_affine(const Affine& p) {
    if (p.is_identity()) return identity();
    return {p.x, p.y, F::one(), F::one()};
  }

  __device__ __forceinline__ bool is_identity() const { return ZZ.is_zero(); }

  __device__ __forceinline__ XyzzPoint operator-() const { return {X, -Y, ZZ, ZZZ}; }

  __device__ __noinline__ XyzzPoint dbl() const {
    if (is_identity()) return *this;
    const F u = Y.dbl();
    const F v = u.square();
    const F w = u * v;
    const F s = X * v;
    const F xx = X.square();
    const F m = xx.dbl() + xx;
    XyzzPoint r;
    r.X = m.square() - s.dbl();
    r.Y = F::sum_of_products(m, s - r.X, -w, Y);
    r.ZZ = v * ZZ;
    r.ZZZ = w * ZZZ;
    return r;
  }

  __device__ XyzzPoint add_affine(const Affine& q) const {
    if (q.is_identity()) return *this;
    if (is_identity()) return from_affine(q);
    const F p = q.x * ZZ - X;
    const F r = q.y * ZZZ - Y;
    if (p.is_zero()) return r.is_zero() ? from_affine(q).dbl() : identity();
    const F pp = p.square();
    const F ppp = p * pp;
    const F qq = X * pp;
    XyzzPoint out;
    out.X = r.square() - ppp - qq.dbl();
    out.Y = F::sum_of_products(r, qq - out.X, -Y, ppp);
    out.ZZ = ZZ * pp;
    out.ZZZ = ZZZ * ppp;
    return out;
  }

  __device__ XyzzPoint operator+(const XyzzPoint& o) const {
    if (is_identity()) return o;
    if (o.is_identity()) return *this;
    const F u1 = X * o.ZZ;
    const F u2 = o.X * ZZ;
    const F s1 = Y * o.ZZZ;
    const F s2 = o.Y * ZZZ;
    const F p = u2 - u1;
    const F r = s2 - s1;
    if (p.is_zero()) return r.is_zero() ? dbl() : identity();
    const F pp = p.square();
    const F ppp = p * pp;
    const F qq = u1 * pp;
    XyzzPoint out;
    out.X = r.square() - ppp - qq.dbl();
    out.Y = F::sum_of_products(r, qq - out.X, -s1, ppp);
    out.ZZ = ZZ * o.ZZ * pp;
    out.ZZZ = ZZZ * o.ZZZ * ppp;
    return out;
  }

  // k·this for a small public k, by double-and-add from the top bit (off every hot
  // path: its additions are calls).
  __device__ XyzzPoint mul_small(u32 k) const {
    XyzzPoint acc = identity();
    for (int bit = 31 - __clz(k | 1); bit >= 0; --bit) {
      acc = acc.dbl();
      if ((k >> bit) & 1) acc = outlined_add(acc, *this);
    }
    return k == 0 ? identity() : acc;
  }
};

template <class P>
__device__ __noinline__ P outlined_add(const P& p, const P& q) {
  return p + q;
}

template <class P>
__device__ __noinline__ P outlined_add_affine(const P& p, const typename P::Affine& q) {
  return p.add_affine(q);
}

}  // namespace zkpipe::gpu
