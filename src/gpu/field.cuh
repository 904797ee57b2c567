// Prime fields on the device, in the same Montgomery form as ff::MontField (a·R mod
// p, R = 2^(64·kLimbs64), limbs little-endian), so vectors move between host and
// device as raw bytes. The device works on 32-bit limbs because the multiplier is
// 32 bits wide; two 32-bit limbs are exactly one host 64-bit limb.
//
// Multiplication is CIOS: for every word of b, add a·b_i and m·p (m chosen to clear
// the lowest word), then drop the zero word; the running value is split into
// even- and odd-aligned halves so each 32×32 product is one wide multiply-add
// (see mul_round). Values are kept fully reduced (< p), as on the host.
#pragma once

#include <cstdint>

#include "gpu/ptx.cuh"

namespace zkpipe::gpu {

using u32 = std::uint32_t;
using u64 = std::uint64_t;

struct FrModulus {
  static constexpr int kLimbs64 = 4;
  __host__ __device__ static constexpr u64 limb64(int i) {
    constexpr u64 p[4] = {0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48};
    return p[i];
  }
};

struct FpModulus {
  static constexpr int kLimbs64 = 6;
  __host__ __device__ static constexpr u64 limb64(int i) {
    constexpr u64 p[6] = {0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                          0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
    return p[i];
  }
};

template <int N>
struct Words {
  u32 w[N];
};

template <class Modulus>
struct alignas(16) Field {
  static constexpr int N = 2 * Modulus::kLimbs64;

  u32 v[N];

  __host__ __device__ static constexpr u32 p(int i) {
    return static_cast<u32>(Modulus::limb64(i / 2) >> (32 * (i % 2)));
  }

  // −p^{-1} mod 2^32 by Newton iteration.
  __host__ __device__ static constexpr u32 inv() {
    u32 x = 1;
    for (int i = 0; i < 5; ++i) x *= 2 - p(0) * x;
    return 0u - x;
  }

  // R mod p by doubling 1 mod p, 32·N times.
  __host__ __device__ static constexpr Words<N> r_mod_p() {
    Words<N> r{};
    r.w[0] = 1;
    for (int k = 0; k < 32 * N; ++k) {
      u32 carry = 0;
      for (int i = 0; i < N; ++i) {
        u32 top = r.w[i] >> 31;
        r.w[i] = (r.w[i] << 1) | carry;
        carry = top;
      }
      bool ge = true;
      for (int i = N - 1; i >= 0; --i) {
        if (r.w[i] != p(i)) {
          ge = r.w[i] > p(i);
          break;
        }
      }
      if (ge) {
        u64 borrow = 0;
        for (int i = 0; i < N; ++i) {
          u64 d = static_cast<u64>(r.w[i]) - p(i) - borrow;
          r.w[i] = static_cast<u32>(d);
          borrow = (d >> 32) & 1;
        }
      }
    }
    return r;
  }

  __device__ __forceinline__ static Field zero() {
    Field r;
#pragma unroll
    for (int i = 0; i < N; ++i) r.v[i] = 0;
    return r;
  }

  __device__ __forceinline__ static Field one() {
    constexpr Words<N> r = r_mod_p();
    Field f;
#pragma unroll
    for (int i = 0; i < N; ++i) f.v[i] = r.w[i];
    return f;
  }

  __device__ __forceinline__ bool is_zero() const {
    u32 acc = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) acc |= v[i];
    return acc == 0;
  }

  __device__ __forceinline__ bool operator==(const Field& o) const {
    u32 acc = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) acc |= v[i] ^ o.v[i];
    return acc == 0;
  }

  // x − p when x ≥ p (x < 2p).
  __device__ __forceinline__ static Field reduce_once(const Field& x) {
    Field t;
    t.v[0] = ptx::sub_cc(x.v[0], p(0));
#pragma unroll
    for (int i = 1; i < N; ++i) t.v[i] = ptx::subc_cc(x.v[i], p(i));
    const u32 borrow = ptx::subc(0, 0);
    return borrow ? x : t;
  }

  __device__ __forceinline__ Field operator+(const Field& o) const {
    Field t;
    t.v[0] = ptx::add_cc(v[0], o.v[0]);
#pragma unroll
    for (int i = 1; i < N; ++i) t.v[i] = ptx::addc_cc(v[i], o.v[i]);
    return reduce_once(t);
  }

  __device__ __forceinline__ Field operator-(const Field& o) const {
    Field t;
    t.v[0] = ptx::sub_cc(v[0], o.v[0]);
#pragma unroll
    for (int i = 1; i < N; ++i) t.v[i] = ptx::subc_cc(v[i], o.v[i]);
    const u32 mask = ptx::subc(0, 0);  // all ones when it borrowed
    Field r;
    r.v[0] = ptx::add_cc(t.v[0], p(0) & mask);
#pragma unroll
    for (int i = 1; i < N; ++i) r.v[i] = ptx::addc_cc(t.v[i], p(i) & mask);
    return r;
  }

  __device__ __forceinline__ Field operator-() const { return zero() - *this; }
  __device__ __forceinline__ Field dbl() const { return *this + *this; }

  __device__ __forceinline__ Field operator*(const Field& o) const {
    u32 x[N];
    u32 y[N];
#pragma unroll
    for (int i = 0; i < N; i += 2) {
      mul_round(x, y, o.v[i], i == 0);
      mul_round(y, x, o.v[i + 1], false);
    }
    // T = x + y/2^32 with y[0] = 0, and T < 2p.
    Field r;
    r.v[0] = ptx::add_cc(x[0], y[1]);
#pragma unroll
    for (int j = 1; j < N - 1; ++j) r.v[j] = ptx::addc_cc(x[j], y[j + 1]);
    r.v[N - 1] = ptx::addc(x[N - 1], 0);
    return reduce_once(r);
  }

  __device__ __forceinline__ Field square() const { return *this * *this; }

  // Montgomery form → the canonical integer (a Montgomery product with 1).
  __device__ __forceinline__ Field to_canonical() const {
    Field unit = zero();
    unit.v[0] = 1;
    return *this * unit;
  }

  __device__ __forceinline__ Field& operator+=(const Field& o) { return *this = *this + o; }
  __device__ __forceinline__ Field& operator-=(const Field& o) { return *this = *this - o; }
  __device__ __forceinline__ Field& operator*=(const Field& o) { return *this = *this * o; }

 private:
  // One CIOS round of operator*, over the running value T kept as two word vectors
  // so that every product lands on a pair of adjacent words (ptx::mad_wide_cc):
  // on entry T = P + Q/2^32 with Q[0] = 0 (nothing on entry to the first round).
  // The odd-indexed products a_j·b_i (j odd) go to Q, which shifts down two words
  // on the way to weight 2^32 (its word 1 moves into P[0] first); the even ones
  // go to P at weight 1, its carry into Q's top word. Then m·p with m clearing
  // P[0], split the same way. On exit T·2^32 = Q·2^32 + P with P[0] = 0: the
  // roles swap for the next round. T stays below 2^(32N + 32), so the top
  // words never carry out.
  __device__ __forceinline__ void mul_round(u32 (&P)[N], u32 (&Q)[N], u32 bi, bool first) const {
    if (first) {
#pragma unroll
      for (int j = 0; j < N; j += 2) {
        ptx::mul_wide(Q[j], Q[j + 1], v[j + 1], bi);
        ptx::mul_wide(P[j], P[j + 1], v[j], bi);
      }
    } else {
      P[0] = ptx::add_cc(P[0], Q[1]);
#pragma unroll
      for (int j = 0; j < N - 2; j += 2) ptx::madc_wide_cc(Q[j], Q[j + 1], v[j + 1], bi, Q[j + 2], Q[j + 3]);
      ptx::madc_wide(Q[N - 2], Q[N - 1], v[N - 1], bi);
      ptx::mad_wide_cc(P[0], P[1], v[0], bi);
#pragma unroll
      for (int j = 2; j < N; j += 2) ptx::madc_wide_cc(P[j], P[j + 1], v[j], bi);
      Q[N - 1] = ptx::addc(Q[N - 1], 0);
    }
    const u32 m = P[0] * inv();
    ptx::mad_wide_cc(Q[0], Q[1], m, p(1));
#pragma unroll
    for (int j = 2; j < N; j += 2) ptx::madc_wide_cc(Q[j], Q[j + 1], m, p(j + 1));
    ptx::mad_wide_cc(P[0], P[1], m, p(0));
#pragma unroll
    for (int j = 2; j < N; j += 2) ptx::madc_wide_cc(P[j], P[j + 1], m, p(j));
    Q[N - 1] = ptx::addc(Q[N - 1], 0);
  }
};

using Fr = Field<FrModulus>;
using Fp = Field<FpModulus>;

static_assert(sizeof(Fr) == 32 && sizeof(Fp) == 48, "same bytes as ff::Fr and ff::Fp");

}  // namespace zkpipe::gpu
