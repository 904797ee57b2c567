// Eight Fp elements at once with AVX-512 IFMA (52-bit multiply-accumulate).
//
// An FpX8 holds element j in 64-bit lane j of eight registers, register k holding
// limb k in radix 2^48. Eight 48-bit limbs are exactly 384 bits, so the Montgomery
// form is Fp's own (R = 2^384) and moving between Fp and FpX8 is bit repacking.
//
// IFMA multiplies the low 52 bits of two lanes and adds either the low or the high
// 52 bits of the 104-bit product. With 48-bit limbs the split falls 4 bits off the
// radix, so one factor is pre-shifted by 4: for x' = 16·x, lo52(x'·y) = 16·(x·y mod
// 2^48) and hi52(x'·y) = x·y >> 48. Each column then keeps two accumulators, L (16×
// the low parts) and H (the high parts), and its value is L/16 + H. Sixteen products
// per column fit in 64 bits with room to spare, so carries wait until a column's
// value is needed.
//
// Everything here is compiled for AVX-512 IFMA whatever the build flags; call it only
// when kCpuHasAvx512Ifma says the processor has it.
#pragma once

#include <array>
#include <cstddef>

#include "ff/cpu_features.hpp"
#include "ff/fp.hpp"

#ifdef ZKPIPE_FF_X86_64
#include <immintrin.h>

// For functions that use FpX8: compiled for AVX-512 IFMA whatever the build flags.
#define ZKPIPE_TARGET_AVX512_IFMA __attribute__((target("avx512f,avx512ifma")))
#define ZKPIPE_AVX512_IFMA __attribute__((target("avx512f,avx512ifma"), always_inline))

namespace zkpipe::ff {

struct FpX8 {
  __m512i limb[8];
};

namespace fp_x8_detail {

inline constexpr u64 kMask48 = (u64{1} << 48) - 1;

constexpr std::array<u64, 8> to_limbs48(const Limbs<6>& w) {
  return {w[0] & kMask48,
          ((w[0] >> 48) | (w[1] << 16)) & kMask48,
          ((w[1] >> 32) | (w[2] << 32)) & kMask48,
          w[2] >> 16,
          w[3] & kMask48,
          ((w[3] >> 48) | (w[4] << 16)) & kMask48,
          ((w[4] >> 32) | (w[5] << 32)) & kMask48,
          w[5] >> 16};
}

constexpr Limbs<6> from_limbs48(const std::array<u64, 8>& l) {
  return {l[0] | (l[1] << 48), (l[1] >> 16) | (l[2] << 32), (l[2] >> 32) | (l[3] << 16),
          l[4] | (l[5] << 48), (l[5] >> 16) | (l[6] << 32), (l[6] >> 32) | (l[7] << 16)};
}

inline constexpr std::array<u64, 8> kModulus48 = to_limbs48(Fp::kModulus);
// −p^(−1) mod 2^48.
inline constexpr u64 kInv48 = Fp::kInv & kMask48;

ZKPIPE_AVX512_IFMA inline __m512i broadcast(u64 v) { return _mm512_set1_epi64(static_cast<long long>(v)); }
// The zero-masked shifts: GCC 12's unmasked ones start from an "undefined" register
// that -Wmaybe-uninitialized reports.
ZKPIPE_AVX512_IFMA inline __m512i shr(__m512i x, unsigned bits) { return _mm512_maskz_srli_epi64(0xff, x, bits); }
ZKPIPE_AVX512_IFMA inline __m512i shl(__m512i x, unsigned bits) { return _mm512_maskz_slli_epi64(0xff, x, bits); }

// a − b over normalized limbs; the returned mask has the lanes that borrowed out.
ZKPIPE_AVX512_IFMA inline __mmask8 sub_limbs(FpX8& out, const FpX8& a, const __m512i (&b)[8]) {
  const __m512i mask = broadcast(kMask48);
  __m512i borrow = _mm512_setzero_si512();
  for (int k = 0; k < 8; ++k) {
    const __m512i d = _mm512_sub_epi64(_mm512_sub_epi64(a.limb[k], b[k]), borrow);
    borrow = shr(d, 63);
    out.limb[k] = _mm512_and_si512(d, mask);
  }
  return _mm512_test_epi64_mask(borrow, borrow);
}

ZKPIPE_AVX512_IFMA inline void add_limbs(FpX8& out, const FpX8& a, const __m512i (&b)[8]) {
  const __m512i mask = broadcast(kMask48);
  __m512i carry = _mm512_setzero_si512();
  for (int k = 0; k < 8; ++k) {
    const __m512i s = _mm512_add_epi64(_mm512_add_epi64(a.limb[k], b[k]), carry);
    carry = shr(s, 48);
    out.limb[k] = _mm512_and_si512(s, mask);
  }
}

struct Modulus {
  __m512i limb[8];
};

ZKPIPE_AVX512_IFMA inline Modulus modulus() {
  Modulus p;
  for (int k = 0; k < 8; ++k) p.limb[k] = broadcast(kModulus48[k]);
  return p;
}

}  // namespace fp_x8_detail

// Lanes staged in memory, limb-major, for loading into and storing from FpX8.
struct alignas(64) FpX8Lanes {
  u64 limb[8][8];

  void set(std::size_t lane, const Fp& x) {
    const auto l = fp_x8_detail::to_limbs48(x.mont());
    for (int k = 0; k < 8; ++k) limb[k][lane] = l[k];
  }
  Fp get(std::size_t lane) const {
    std::array<u64, 8> l{};
    for (int k = 0; k < 8; ++k) l[k] = limb[k][lane];
    return Fp::from_mont(fp_x8_detail::from_limbs48(l));
  }
};

ZKPIPE_AVX512_IFMA inline FpX8 fpx8_load(const FpX8Lanes& lanes) {
  FpX8 x;
  for (int k = 0; k < 8; ++k) x.limb[k] = _mm512_load_si512(lanes.limb[k]);
  return x;
}

ZKPIPE_AVX512_IFMA inline void fpx8_store(FpX8Lanes& lanes, const FpX8& x) {
  for (int k = 0; k < 8; ++k) _mm512_store_si512(lanes.limb[k], x.limb[k]);
}

ZKPIPE_AVX512_IFMA inline FpX8 fpx8_sub(const FpX8& a, const FpX8& b) {
  using namespace fp_x8_detail;
  FpX8 d;
  const __mmask8 borrowed = sub_limbs(d, a, b.limb);
  FpX8 wrapped;
  add_limbs(wrapped, d, modulus().limb);
  for (int k = 0; k < 8; ++k) d.limb[k] = _mm512_mask_mov_epi64(d.limb[k], borrowed, wrapped.limb[k]);
  return d;
}

ZKPIPE_AVX512_IFMA inline FpX8 fpx8_add(const FpX8& a, const FpX8& b) {
  using namespace fp_x8_detail;
  FpX8 s;
  add_limbs(s, a, b.limb);  // < 2p < 2^384
  FpX8 reduced;
  const __mmask8 below_p = sub_limbs(reduced, s, modulus().limb);
  for (int k = 0; k < 8; ++k) s.limb[k] = _mm512_mask_mov_epi64(reduced.limb[k], below_p, s.limb[k]);
  return s;
}

// Montgomery product a·b·2^(−384) mod p, lane by lane: the full product in columns,
// then eight reduction steps of 48 bits each, then one conditional subtraction.
ZKPIPE_AVX512_IFMA inline FpX8 fpx8_mul(const FpX8& a, const FpX8& b) {
  using namespace fp_x8_detail;
  const __m512i zero = _mm512_setzero_si512();
  __m512i lo[16];
  __m512i hi[16];
  for (int k = 0; k < 16; ++k) lo[k] = hi[k] = zero;

  for (int i = 0; i < 8; ++i) {
    const __m512i ai = shl(a.limb[i], 4);
    for (int j = 0; j < 8; ++j) {
      lo[i + j] = _mm512_madd52lo_epu64(lo[i + j], ai, b.limb[j]);
      hi[i + j + 1] = _mm512_madd52hi_epu64(hi[i + j + 1], ai, b.limb[j]);
    }
  }

  const __m512i mask = broadcast(kMask48);
  const __m512i inv = broadcast(kInv48);
  const Modulus p = modulus();
  for (int i = 0; i < 8; ++i) {
    // Column i's value so far; m makes it divisible by 2^48.
    const __m512i t = _mm512_add_epi64(shr(lo[i], 4), hi[i]);
    const __m512i m = _mm512_and_si512(_mm512_madd52lo_epu64(zero, _mm512_and_si512(t, mask), inv), mask);
    const __m512i m16 = shl(m, 4);
    for (int j = 0; j < 8; ++j) {
      lo[i + j] = _mm512_madd52lo_epu64(lo[i + j], m16, p.limb[j]);
      hi[i + j + 1] = _mm512_madd52hi_epu64(hi[i + j + 1], m16, p.limb[j]);
    }
    const __m512i cleared = _mm512_add_epi64(shr(lo[i], 4), hi[i]);
    hi[i + 1] = _mm512_add_epi64(hi[i + 1], shr(cleared, 48));
  }

  // The quotient sits in columns 8..15, below 2p: normalize, then subtract p if needed.
  FpX8 r;
  __m512i carry = zero;
  for (int k = 0; k < 8; ++k) {
    const __m512i v = _mm512_add_epi64(_mm512_add_epi64(shr(lo[8 + k], 4), hi[8 + k]), carry);
    carry = shr(v, 48);
    r.limb[k] = _mm512_and_si512(v, mask);
  }
  FpX8 reduced;
  const __mmask8 below_p = sub_limbs(reduced, r, p.limb);
  for (int k = 0; k < 8; ++k) r.limb[k] = _mm512_mask_mov_epi64(reduced.limb[k], below_p, r.limb[k]);
  return r;
}

ZKPIPE_AVX512_IFMA inline FpX8 fpx8_square(const FpX8& a) { return fpx8_mul(a, a); }

}  // namespace zkpipe::ff

#endif  // ZKPIPE_FF_X86_64
