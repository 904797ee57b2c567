// Prime fields on the device, in the same Montgomery form as ff::MontField (a·R mod
// p, R = 2^(64·kLimbs64), limbs little-endian), so vectors move between host and
// device as raw bytes. The device works on 32-bit limbs because the multiplier is
// 32 bits wide; two 32-bit limbs are exactly one host 64-bit limb.
//
// Multiplication is CIOS: for every word of b, add a·b_i and m·p (m chosen to clear
// the lowest word), each as two carry chains (low halves, then high halves one word
// up), then drop the zero word. Values are kept fully reduced (< p), as on the host.
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

  // Fr's modulus ends in the words 1, 2^32 − 1, which saves multiplies in the
  // Montgomery reduction.
  static constexpr bool kLowWordsOneAndMax = Modulus::limb64(0) == 0xffffffff00000001;

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
    u32 t[N + 2];
#pragma unroll
    for (int i = 0; i < N + 2; ++i) t[i] = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) {
      const u32 bi = o.v[i];
      t[0] = ptx::mad_lo_cc(v[0], bi, t[0]);
#pragma unroll
      for (int j = 1; j < N; ++j) t[j] = ptx::madc_lo_cc(v[j], bi, t[j]);
      t[N] = ptx::addc_cc(t[N], 0);
      t[N + 1] = ptx::addc(t[N + 1], 0);
      t[1] = ptx::mad_hi_cc(v[0], bi, t[1]);
#pragma unroll
      for (int j = 1; j < N; ++j) t[j + 1] = ptx::madc_hi_cc(v[j], bi, t[j + 1]);
      t[N + 1] = ptx::addc(t[N + 1], 0);

      if constexpr (kLowWordsOneAndMax) {
        // p(0) = 1 and p(1) = 2^32 − 1, so inv() = 2^32 − 1 and m = −t0: m·p(0)
        // is m (high word 0) and m·p(1) = m·2^32 − m has low word −m = t0 and high
        // word m − 1, or 0 when m = 0. t0 + m leaves 0 and carries [t0 ≠ 0]. Five
        // multiplies per word of b become additions.
        const u32 t0 = t[0];
        const u32 m = 0u - t0;
        const u32 h1 = m - (m != 0u ? 1u : 0u);
        ptx::add_cc(t0, m);
        t[1] = ptx::addc_cc(t[1], t0);
#pragma unroll
        for (int j = 2; j < N; ++j) t[j] = ptx::madc_lo_cc(m, p(j), t[j]);
        t[N] = ptx::addc_cc(t[N], 0);
        t[N + 1] = ptx::addc(t[N + 1], 0);
        t[2] = ptx::add_cc(t[2], h1);
#pragma unroll
        for (int j = 2; j < N; ++j) t[j + 1] = ptx::madc_hi_cc(m, p(j), t[j + 1]);
        t[N + 1] = ptx::addc(t[N + 1], 0);
      } else {
        const u32 m = t[0] * inv();
        t[0] = ptx::mad_lo_cc(m, p(0), t[0]);
#pragma unroll
        for (int j = 1; j < N; ++j) t[j] = ptx::madc_lo_cc(m, p(j), t[j]);
        t[N] = ptx::addc_cc(t[N], 0);
        t[N + 1] = ptx::addc(t[N + 1], 0);
        t[1] = ptx::mad_hi_cc(m, p(0), t[1]);
#pragma unroll
        for (int j = 1; j < N; ++j) t[j + 1] = ptx::madc_hi_cc(m, p(j), t[j + 1]);
        t[N + 1] = ptx::addc(t[N + 1], 0);
      }

#pragma unroll
      for (int j = 0; j <= N; ++j) t[j] = t[j + 1];
      t[N + 1] = 0;
    }
    Field r;
#pragma unroll
    for (int i = 0; i < N; ++i) r.v[i] = t[i];
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
};

using Fr = Field<FrModulus>;
using Fp = Field<FpModulus>;

static_assert(sizeof(Fr) == 32 && sizeof(Fp) == 48, "same bytes as ff::Fr and ff::Fp");

}  // namespace zkpipe::gpu
