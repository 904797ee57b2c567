// Fp2 = Fp[u] / (u² + 1) on the device, the field G2 lives over; the same bytes as
// ff::Fp2 (c0, then c1, each a device Fp), and, every value being fully reduced,
// the same results bit for bit.
#pragma once

#include "gpu/field.cuh"

namespace zkpipe::gpu {

struct Fp2 {
  Fp c0;  // real part
  Fp c1;  // coefficient of u

  __device__ __forceinline__ static Fp2 zero() { return {Fp::zero(), Fp::zero()}; }
  __device__ __forceinline__ static Fp2 one() { return {Fp::one(), Fp::zero()}; }

  __device__ __forceinline__ bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  __device__ __forceinline__ bool operator==(const Fp2& o) const { return c0 == o.c0 && c1 == o.c1; }

  __device__ __forceinline__ Fp2 operator+(const Fp2& o) const { return {c0 + o.c0, c1 + o.c1}; }
  __device__ __forceinline__ Fp2 operator-(const Fp2& o) const { return {c0 - o.c0, c1 - o.c1}; }
  __device__ __forceinline__ Fp2 operator-() const { return {-c0, -c1}; }
  __device__ __forceinline__ Fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }

  // Karatsuba with u² = −1: three base-field products instead of four.
  __device__ __forceinline__ Fp2 operator*(const Fp2& o) const {
    const Fp v0 = c0 * o.c0;
    const Fp v1 = c1 * o.c1;
    return {v0 - v1, (c0 + c1) * (o.c0 + o.c1) - v0 - v1};
  }

  __device__ __forceinline__ static Fp2 sum_of_products(const Fp2& a, const Fp2& b, const Fp2& c, const Fp2& d) {
    return a * b + c * d;
  }

  // (a + bu)² = (a + b)(a − b) + 2ab·u: two products.
  __device__ __forceinline__ Fp2 square() const {
    const Fp ab = c0 * c1;
    return {(c0 + c1) * (c0 - c1), ab.dbl()};
  }

  // (c0 − c1·u) / (c0² + c1²), as u² = −1; 0 for 0.
  __device__ Fp2 inverse() const {
    const Fp norm_inv = (c0.square() + c1.square()).inverse();
    return {c0 * norm_inv, -(c1 * norm_inv)};
  }

  __device__ __forceinline__ Fp2& operator+=(const Fp2& o) { return *this = *this + o; }
  __device__ __forceinline__ Fp2& operator-=(const Fp2& o) { return *this = *this - o; }
  __device__ __forceinline__ Fp2& operator*=(const Fp2& o) { return *this = *this * o; }
};

static_assert(sizeof(Fp2) == 96, "same bytes as ff::Fp2");

}  // namespace zkpipe::gpu
