// Prime fields on the device, in the same Montgomery form as ff::MontField (a·R mod
// p, R = 2^(64·kLimbs64), limbs little-endian), so vectors move between host and
// device as raw bytes. The device works on 32-bit limbs because the multiplier is
// 32 bits wide; two 32-bit limbs are exactly one host 64-bit limb.
//
// Multiplication is CIOS: for every word of b, add a·b_i and m·p (m chosen to clear
// the lowest word), then drop the zero word; the running value is split into
// even- and odd-aligned halves so each 32×32 product is one wide multiply-add
// (see product_round). Values are kept fully reduced (< p), as on the host.
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
      product_round(x, y, o.v[i], i == 0);
      reduce_round(x, y);
      product_round(y, x, o.v[i + 1], false);
      reduce_round(y, x);
    }
    return finish(x, y);
  }

  // a·b + c·d with one Montgomery reduction instead of two: both products enter
  // each CIOS round before its reduction. The running value then stays below 3p,
  // which fits the words only with two spare top bits (Fp has three; Fr none, so
  // it takes two products).
  __device__ __forceinline__ static Field sum_of_products(const Field& a, const Field& b, const Field& c,
                                                          const Field& d) {
    if constexpr (p(N - 1) >= (1u << 30)) {
      return a * b + c * d;
    } else {
      u32 x[N];
      u32 y[N];
#pragma unroll
      for (int i = 0; i < N; i += 2) {
        a.product_round(x, y, b.v[i], i == 0);
        c.add_product(x, y, d.v[i]);
        reduce_round(x, y);
        a.product_round(y, x, b.v[i + 1], false);
        c.add_product(y, x, d.v[i + 1]);
        reduce_round(y, x);
      }
      return finish(x, y);
    }
  }

  // a² with each cross product a_i·a_j (i < j) formed once: round i adds
  // a_i·(a_i·2^(32i) + Σ_{j>i} 2a_j·2^(32j)), N − i products instead of N. Its
  // words below i are empty, and word i is reduced in round i, after every round
  // i' ≤ i/2 that adds to it. The doubled words take the bit shifted in from the
  // word below. The doubled cross products come early, so the running value
  // reaches 3p: like sum_of_products, this needs two spare top bits (Fp; Fr
  // multiplies).
  __device__ __forceinline__ Field square() const {
    if constexpr (p(N - 1) >= (1u << 30)) {
      return *this * *this;
    } else {
      u32 x[N];
      u32 y[N];
#pragma unroll
      for (int i = 0; i < N; i += 2) {
        square_round(x, y, i);
        reduce_round(x, y);
        square_round(y, x, i + 1);
        reduce_round(y, x);
      }
      return finish(x, y);
    }
  }

  // Montgomery form → the canonical integer (a Montgomery product with 1).
  __device__ __forceinline__ Field to_canonical() const {
    Field unit = zero();
    unit.v[0] = 1;
    return *this * unit;
  }

  // a^(p−2) by Fermat: a⁻¹, and 0 for 0. Its time does not depend on a (square
  // and multiply over the fixed exponent's bits), though nothing secret uses it.
  __device__ Field inverse() const {
    Field r = one();
    // Not unrolled: 384 inlined squarings would take nvcc minutes and bloat the kernel.
#pragma unroll 1
    for (int i = N - 1; i >= 0; --i) {
      const u32 e = p(i) - (i == 0 ? 2u : 0u);  // p is odd and > 2: no borrow
#pragma unroll 1
      for (int bit = 31; bit >= 0; --bit) {
        r = r.square();
        if ((e >> bit) & 1u) r *= *this;
      }
    }
    return r;
  }

  __device__ __forceinline__ Field& operator+=(const Field& o) { return *this = *this + o; }
  __device__ __forceinline__ Field& operator-=(const Field& o) { return *this = *this - o; }
  __device__ __forceinline__ Field& operator*=(const Field& o) { return *this = *this * o; }

 private:
  // The CIOS rounds keep the running value T as two word vectors so that every
  // product lands on a pair of adjacent words (ptx::mad_wide_cc): after a round's
  // products, T = P + Q·2^32 with the even-indexed products a_j·b_i (weight 2^(32j))
  // in P and the odd-indexed ones in Q, one word down. A round starts from
  // T = P + Q/2^32 with Q[0] = 0 (nothing in the first round): Q shifts down two
  // words on the way to weight 2^32 (its word 1 moves into P[0] first), and the
  // carry out of P's top word goes into Q's. The reduction adds m·p, m clearing
  // P[0], split the same way; then T·2^32 = Q·2^32 + P with P[0] = 0, and the two
  // vectors swap roles for the next round. T stays below 2^(32N + 32), so no top
  // word carries out.
  __device__ __forceinline__ void product_round(u32 (&P)[N], u32 (&Q)[N], u32 bi, bool first) const {
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
  }

  // Word r ≥ i of round i's multiplicand in square().
  __device__ __forceinline__ u32 square_word(int i, int r) const {
    if (r == i) return v[i];
    if (r == i + 1) return v[r] << 1;
    return __funnelshift_l(v[r - 1], v[r], 1);
  }

  // product_round for round i of square(): the words below i take no product,
  // only Q's shift, and P's chain starts at the first even word ≥ i.
  __device__ __forceinline__ void square_round(u32 (&P)[N], u32 (&Q)[N], int i) const {
    const u32 ai = v[i];
    if (i == 0) {
#pragma unroll
      for (int j = 0; j < N; j += 2) {
        ptx::mul_wide(Q[j], Q[j + 1], square_word(0, j + 1), ai);
        ptx::mul_wide(P[j], P[j + 1], square_word(0, j), ai);
      }
      return;
    }
    P[0] = ptx::add_cc(P[0], Q[1]);
#pragma unroll
    for (int j = 0; j < N - 2; j += 2) {
      if (j + 1 >= i) {
        ptx::madc_wide_cc(Q[j], Q[j + 1], square_word(i, j + 1), ai, Q[j + 2], Q[j + 3]);
      } else {
        Q[j] = ptx::addc_cc(Q[j + 2], 0);
        Q[j + 1] = ptx::addc_cc(Q[j + 3], 0);
      }
    }
    ptx::madc_wide(Q[N - 2], Q[N - 1], square_word(i, N - 1), ai);
    const int first_even = i + (i & 1);
    if (first_even < N) {
      ptx::mad_wide_cc(P[first_even], P[first_even + 1], square_word(i, first_even), ai);
#pragma unroll
      for (int r = first_even + 2; r < N; r += 2) ptx::madc_wide_cc(P[r], P[r + 1], square_word(i, r), ai);
      Q[N - 1] = ptx::addc(Q[N - 1], 0);
    }
  }

  // T += this·di at the round's weights, after product_round. Q's chain cannot
  // carry out of its top word: Q's share of T never exceeds T.
  __device__ __forceinline__ void add_product(u32 (&P)[N], u32 (&Q)[N], u32 di) const {
    ptx::mad_wide_cc(Q[0], Q[1], v[1], di);
#pragma unroll
    for (int j = 2; j < N; j += 2) ptx::madc_wide_cc(Q[j], Q[j + 1], v[j + 1], di);
    ptx::mad_wide_cc(P[0], P[1], v[0], di);
#pragma unroll
    for (int j = 2; j < N; j += 2) ptx::madc_wide_cc(P[j], P[j + 1], v[j], di);
    Q[N - 1] = ptx::addc(Q[N - 1], 0);
  }

  __device__ __forceinline__ static void reduce_round(u32 (&P)[N], u32 (&Q)[N]) {
    const u32 m = P[0] * inv();
    ptx::mad_wide_cc(Q[0], Q[1], m, p(1));
#pragma unroll
    for (int j = 2; j < N; j += 2) ptx::madc_wide_cc(Q[j], Q[j + 1], m, p(j + 1));
    ptx::mad_wide_cc(P[0], P[1], m, p(0));
#pragma unroll
    for (int j = 2; j < N; j += 2) ptx::madc_wide_cc(P[j], P[j + 1], m, p(j));
    Q[N - 1] = ptx::addc(Q[N - 1], 0);
  }

  // After the last round T = x + y/2^32 with y[0] = 0, and T < 2p.
  __device__ __forceinline__ static Field finish(const u32 (&x)[N], const u32 (&y)[N]) {
    Field r;
    r.v[0] = ptx::add_cc(x[0], y[1]);
#pragma unroll
    for (int j = 1; j < N - 1; ++j) r.v[j] = ptx::addc_cc(x[j], y[j + 1]);
    r.v[N - 1] = ptx::addc(x[N - 1], 0);
    return reduce_once(r);
  }
};

using Fr = Field<FrModulus>;
using Fp = Field<FpModulus>;

static_assert(sizeof(Fr) == 32 && sizeof(Fp) == 48, "same bytes as ff::Fr and ff::Fp");

}  // namespace zkpipe::gpu
