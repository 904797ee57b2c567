// Montgomery multiplication for 4- and 6-limb moduli in x86-64 assembly, using
// mulx (BMI2) and the two independent carry chains of adcx / adox (ADX).
//
// The algorithm is CIOS: for each limb b_i of b, add a·b_i to the running sum t,
// then add m·p with m = t_0·(-p^{-1}) mod 2^64, which clears the low word, and
// shift t down one word. mulx leaves the flags alone, so the low halves of the
// products ride the OF chain (adox) while the high halves ride the CF chain (adcx),
// and both chains run interleaved without saving a flag.
//
// The shift is free: the word that becomes zero is renamed to be the new top
// word, so each step below uses the registers rotated by one place.
//
// Bounds: with a < p, t < 2p and p < 2^(64N-1), each step keeps
// t + a·b_i + m·p <= (2p - 1)·2^64 < 2^(64(N+1)), so the N+1 words never carry
// out, and the result is < 2p; one conditional subtraction of p finishes it.
#pragma once

#include "ff/limbs.hpp"

#ifdef ZKPIPE_FF_X86_64

// The running sum starts at zero; the 32-bit xor clears the whole register.
#define ZKPIPE_ADX_ZERO(T) "xorl %k[" #T "], %k[" #T "]\n\t"

// t[j] += lo(src·rdx) on the OF chain, t[j+1] += hi(src·rdx) on the CF chain.
#define ZKPIPE_ADX_MAC(SRC, OFF, LO, HI)           \
  "mulxq " #OFF "(%[" #SRC "]), %[lo], %[hi]\n\t"  \
  "adoxq %[lo], %[" #LO "]\n\t"                    \
  "adcxq %[hi], %[" #HI "]\n\t"

// t += a·b_i with the top word TOP zero on entry. The xor clears CF and OF; the
// zero in TOP then closes the OF chain into the last high half.
#define ZKPIPE_ADX_PRODUCT_TAIL(OFF, LAST, TOP) \
  "mulxq " #OFF "(%[a]), %[lo], %[hi]\n\t"      \
  "adoxq %[lo], %[" #LAST "]\n\t"             \
  "adoxq %[" #TOP "], %[hi]\n\t"              \
  "adcxq %[hi], %[" #TOP "]\n\t"

#define ZKPIPE_ADX_PRODUCT4(BOFF, T0, T1, T2, T3, T4)                        \
  "movq " #BOFF "(%[b]), %[d]\n\t"                                             \
  "xorl %k[" #T4 "], %k[" #T4 "]\n\t"                                      \
  ZKPIPE_ADX_MAC(a, 0, T0, T1) ZKPIPE_ADX_MAC(a, 8, T1, T2)                    \
  ZKPIPE_ADX_MAC(a, 16, T2, T3) ZKPIPE_ADX_PRODUCT_TAIL(24, T3, T4)

#define ZKPIPE_ADX_PRODUCT6(BOFF, T0, T1, T2, T3, T4, T5, T6)                \
  "movq " #BOFF "(%[b]), %[d]\n\t"                                             \
  "xorl %k[" #T6 "], %k[" #T6 "]\n\t"                                      \
  ZKPIPE_ADX_MAC(a, 0, T0, T1) ZKPIPE_ADX_MAC(a, 8, T1, T2)                    \
  ZKPIPE_ADX_MAC(a, 16, T2, T3) ZKPIPE_ADX_MAC(a, 24, T3, T4)                    \
  ZKPIPE_ADX_MAC(a, 32, T4, T5) ZKPIPE_ADX_PRODUCT_TAIL(40, T5, T6)

// t += m·p with m = t_0·(-p^{-1}) mod 2^64. The low word becomes exactly zero,
// which then serves as the zero that closes the OF chain; it is renamed to be the
// next step's (zero) top word.
#define ZKPIPE_ADX_LOAD_M(T0)  \
  "movq %[" #T0 "], %[d]\n\t" \
  "imulq %[inv], %[d]\n\t"    \
  "xorl %k[lo], %k[lo]\n\t"

#define ZKPIPE_ADX_REDUCE4(T0, T1, T2, T3, T4)                             \
  ZKPIPE_ADX_LOAD_M(T0)                                                    \
  ZKPIPE_ADX_MAC(p, 0, T0, T1) ZKPIPE_ADX_MAC(p, 8, T1, T2)                    \
  ZKPIPE_ADX_MAC(p, 16, T2, T3) ZKPIPE_ADX_MAC(p, 24, T3, T4)                    \
  "adoxq %[" #T0 "], %[" #T4 "]\n\t"

#define ZKPIPE_ADX_REDUCE6(T0, T1, T2, T3, T4, T5, T6)                     \
  ZKPIPE_ADX_LOAD_M(T0)                                                    \
  ZKPIPE_ADX_MAC(p, 0, T0, T1) ZKPIPE_ADX_MAC(p, 8, T1, T2)                    \
  ZKPIPE_ADX_MAC(p, 16, T2, T3) ZKPIPE_ADX_MAC(p, 24, T3, T4)                    \
  ZKPIPE_ADX_MAC(p, 32, T4, T5) ZKPIPE_ADX_MAC(p, 40, T5, T6)                    \
  "adoxq %[" #T0 "], %[" #T6 "]\n\t"

// Final conditional subtraction: S = R - p; keep S unless it borrowed. cmov
// keeps it branch-free and the result in registers.
#define ZKPIPE_ADX_SUB_P(OFF, OP, R, S) \
  "movq %[" #R "], %[" #S "]\n\t"       \
  OP " " #OFF "(%[p]), %[" #S "]\n\t"
#define ZKPIPE_ADX_TAKE(R, S) "cmovncq %[" #S "], %[" #R "]\n\t"

#define ZKPIPE_ADX_REDUCE_ONCE4(R0, R1, R2, R3, S0, S1, S2, S3)                     \
  ZKPIPE_ADX_SUB_P(0, "subq", R0, S0) ZKPIPE_ADX_SUB_P(8, "sbbq", R1, S1)           \
  ZKPIPE_ADX_SUB_P(16, "sbbq", R2, S2) ZKPIPE_ADX_SUB_P(24, "sbbq", R3, S3)         \
  ZKPIPE_ADX_TAKE(R0, S0) ZKPIPE_ADX_TAKE(R1, S1) ZKPIPE_ADX_TAKE(R2, S2)           \
  ZKPIPE_ADX_TAKE(R3, S3)

#define ZKPIPE_ADX_REDUCE_ONCE6(R0, R1, R2, R3, R4, R5, S0, S1, S2, S3, S4, S5)     \
  ZKPIPE_ADX_SUB_P(0, "subq", R0, S0) ZKPIPE_ADX_SUB_P(8, "sbbq", R1, S1)           \
  ZKPIPE_ADX_SUB_P(16, "sbbq", R2, S2) ZKPIPE_ADX_SUB_P(24, "sbbq", R3, S3)         \
  ZKPIPE_ADX_SUB_P(32, "sbbq", R4, S4) ZKPIPE_ADX_SUB_P(40, "sbbq", R5, S5)         \
  ZKPIPE_ADX_TAKE(R0, S0) ZKPIPE_ADX_TAKE(R1, S1) ZKPIPE_ADX_TAKE(R2, S2)           \
  ZKPIPE_ADX_TAKE(R3, S3) ZKPIPE_ADX_TAKE(R4, S4) ZKPIPE_ADX_TAKE(R5, S5)

#define ZKPIPE_ADX_STEP4(BOFF, T0, T1, T2, T3, T4) \
  ZKPIPE_ADX_PRODUCT4(BOFF, T0, T1, T2, T3, T4) ZKPIPE_ADX_REDUCE4(T0, T1, T2, T3, T4)

#define ZKPIPE_ADX_STEP6(BOFF, T0, T1, T2, T3, T4, T5, T6) \
  ZKPIPE_ADX_PRODUCT6(BOFF, T0, T1, T2, T3, T4, T5, T6)    \
  ZKPIPE_ADX_REDUCE6(T0, T1, T2, T3, T4, T5, T6)

namespace zkpipe::ff::detail {

template <std::size_t N>
inline constexpr bool kHasAdxMontMul = N == 4 || N == 6;

// a·b·2^(-64N) mod p, fully reduced. Requires a < p and a CPU with BMI2 and ADX.
// The result never leaves registers until the caller stores it: a memory round
// trip with mixed store and load widths would stall store-to-load forwarding.
template <std::size_t N, const Limbs<N>& kP, const u64& kInv>
[[gnu::always_inline]] inline Limbs<N> mont_mul_adx(const Limbs<N>& a, const Limbs<N>& b) {
  static_assert(kHasAdxMontMul<N>);
  u64 lo, hi, d;
  const u64* a_ptr = a.data();
  const u64* b_ptr = b.data();
  if constexpr (N == 4) {
    u64 t0, t1, t2, t3, t4;
    asm(ZKPIPE_ADX_ZERO(t0) ZKPIPE_ADX_ZERO(t1) ZKPIPE_ADX_ZERO(t2) ZKPIPE_ADX_ZERO(t3)
        ZKPIPE_ADX_ZERO(t4)
        ZKPIPE_ADX_STEP4(0, t0, t1, t2, t3, t4)
        ZKPIPE_ADX_STEP4(8, t1, t2, t3, t4, t0)
        ZKPIPE_ADX_STEP4(16, t2, t3, t4, t0, t1)
        ZKPIPE_ADX_STEP4(24, t3, t4, t0, t1, t2)
        ZKPIPE_ADX_REDUCE_ONCE4(t4, t0, t1, t2, lo, hi, d, t3)
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d)
        : [a] "r"(a_ptr), [b] "r"(b_ptr), [p] "r"(kP.data()), [inv] "m"(kInv)
        : "cc", "memory");
    return {t4, t0, t1, t2};
  } else {
    // The pointers to a and b double as scratch for the final subtraction.
    u64 t0, t1, t2, t3, t4, t5, t6;
    asm(ZKPIPE_ADX_ZERO(t0) ZKPIPE_ADX_ZERO(t1) ZKPIPE_ADX_ZERO(t2) ZKPIPE_ADX_ZERO(t3)
        ZKPIPE_ADX_ZERO(t4) ZKPIPE_ADX_ZERO(t5) ZKPIPE_ADX_ZERO(t6)
        ZKPIPE_ADX_STEP6(0, t0, t1, t2, t3, t4, t5, t6)
        ZKPIPE_ADX_STEP6(8, t1, t2, t3, t4, t5, t6, t0)
        ZKPIPE_ADX_STEP6(16, t2, t3, t4, t5, t6, t0, t1)
        ZKPIPE_ADX_STEP6(24, t3, t4, t5, t6, t0, t1, t2)
        ZKPIPE_ADX_STEP6(32, t4, t5, t6, t0, t1, t2, t3)
        ZKPIPE_ADX_STEP6(40, t5, t6, t0, t1, t2, t3, t4)
        ZKPIPE_ADX_REDUCE_ONCE6(t6, t0, t1, t2, t3, t4, lo, hi, d, a, b, t5)
        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
          [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d),
          [a] "+&r"(a_ptr), [b] "+&r"(b_ptr)
        : [p] "r"(kP.data()), [inv] "m"(kInv)
        : "cc", "memory");
    return {t6, t0, t1, t2, t3, t4};
  }
}

// a·b as a 2N-word integer, without reduction: the first half of a lazily reduced
// product (sums of several such products share one reduction, see mont_redc_adx).
// Each row adds a·b_i into a window of N+1 words whose lowest word is then final.
// Requires a, b < 2^(64N) and a CPU with BMI2 and ADX.
template <std::size_t N>
[[gnu::always_inline]] inline Limbs<2 * N> mul_wide_adx(const Limbs<N>& a, const Limbs<N>& b) {
  static_assert(N == 6, "only the 6-word (Fp) wide product is needed");
  Limbs<2 * N> r;
  u64 lo, hi, d;
  u64 t0, t1, t2, t3, t4, t5, t6;
  asm(ZKPIPE_ADX_ZERO(t0) ZKPIPE_ADX_ZERO(t1) ZKPIPE_ADX_ZERO(t2) ZKPIPE_ADX_ZERO(t3)
      ZKPIPE_ADX_ZERO(t4) ZKPIPE_ADX_ZERO(t5)
      ZKPIPE_ADX_PRODUCT6(0, t0, t1, t2, t3, t4, t5, t6) "movq %[t0], 0(%[r])\n\t"
      ZKPIPE_ADX_PRODUCT6(8, t1, t2, t3, t4, t5, t6, t0) "movq %[t1], 8(%[r])\n\t"
      ZKPIPE_ADX_PRODUCT6(16, t2, t3, t4, t5, t6, t0, t1) "movq %[t2], 16(%[r])\n\t"
      ZKPIPE_ADX_PRODUCT6(24, t3, t4, t5, t6, t0, t1, t2) "movq %[t3], 24(%[r])\n\t"
      ZKPIPE_ADX_PRODUCT6(32, t4, t5, t6, t0, t1, t2, t3) "movq %[t4], 32(%[r])\n\t"
      ZKPIPE_ADX_PRODUCT6(40, t5, t6, t0, t1, t2, t3, t4) "movq %[t5], 40(%[r])\n\t"
      "movq %[t6], 48(%[r])\n\t"
      "movq %[t0], 56(%[r])\n\t"
      "movq %[t1], 64(%[r])\n\t"
      "movq %[t2], 72(%[r])\n\t"
      "movq %[t3], 80(%[r])\n\t"
      "movq %[t4], 88(%[r])\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d),
        // Names the words written through [r], so that the asm is not dropped as dead.
        [written] "=m"(r)
      : [a] "r"(a.data()), [b] "r"(b.data()), [r] "r"(r.data())
      : "cc", "memory");
  return r;
}

// Montgomery reduction t·2^(-64N) mod p of a 2N-word t < p·2^(64N), fully reduced.
// The low half is reduced word by word exactly as in mont_mul_adx (without the
// products); adding the high half then gives a value < 2p, and one conditional
// subtraction finishes it. Requires a CPU with BMI2 and ADX.
template <std::size_t N, const Limbs<N>& kP, const u64& kInv>
[[gnu::always_inline]] inline Limbs<N> mont_redc_adx(const Limbs<2 * N>& t) {
  static_assert(N == 6, "only the 6-word (Fp) reduction is needed");
  u64 lo, hi, d, s;
  u64 t0, t1, t2, t3, t4, t5, t6;
  const u64* t_ptr = t.data();
  asm("movq 0(%[t]), %[t0]\n\t"
      "movq 8(%[t]), %[t1]\n\t"
      "movq 16(%[t]), %[t2]\n\t"
      "movq 24(%[t]), %[t3]\n\t"
      "movq 32(%[t]), %[t4]\n\t"
      "movq 40(%[t]), %[t5]\n\t"
      ZKPIPE_ADX_ZERO(t6) ZKPIPE_ADX_REDUCE6(t0, t1, t2, t3, t4, t5, t6)
      ZKPIPE_ADX_ZERO(t0) ZKPIPE_ADX_REDUCE6(t1, t2, t3, t4, t5, t6, t0)
      ZKPIPE_ADX_ZERO(t1) ZKPIPE_ADX_REDUCE6(t2, t3, t4, t5, t6, t0, t1)
      ZKPIPE_ADX_ZERO(t2) ZKPIPE_ADX_REDUCE6(t3, t4, t5, t6, t0, t1, t2)
      ZKPIPE_ADX_ZERO(t3) ZKPIPE_ADX_REDUCE6(t4, t5, t6, t0, t1, t2, t3)
      ZKPIPE_ADX_ZERO(t4) ZKPIPE_ADX_REDUCE6(t5, t6, t0, t1, t2, t3, t4)
      "addq 48(%[t]), %[t6]\n\t"
      "adcq 56(%[t]), %[t0]\n\t"
      "adcq 64(%[t]), %[t1]\n\t"
      "adcq 72(%[t]), %[t2]\n\t"
      "adcq 80(%[t]), %[t3]\n\t"
      "adcq 88(%[t]), %[t4]\n\t"
      ZKPIPE_ADX_REDUCE_ONCE6(t6, t0, t1, t2, t3, t4, lo, hi, d, t, s, t5)
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4),
        [t5] "=&r"(t5), [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [d] "=&d"(d),
        [s] "=&r"(s), [t] "+&r"(t_ptr)
      : [p] "r"(kP.data()), [inv] "m"(kInv)
      : "cc", "memory");
  return {t6, t0, t1, t2, t3, t4};
}

}  // namespace zkpipe::ff::detail

#undef ZKPIPE_ADX_REDUCE_ONCE6
#undef ZKPIPE_ADX_REDUCE_ONCE4
#undef ZKPIPE_ADX_TAKE
#undef ZKPIPE_ADX_SUB_P
#undef ZKPIPE_ADX_STEP6
#undef ZKPIPE_ADX_STEP4
#undef ZKPIPE_ADX_REDUCE6
#undef ZKPIPE_ADX_REDUCE4
#undef ZKPIPE_ADX_LOAD_M
#undef ZKPIPE_ADX_PRODUCT6
#undef ZKPIPE_ADX_PRODUCT4
#undef ZKPIPE_ADX_PRODUCT_TAIL
#undef ZKPIPE_ADX_MAC
#undef ZKPIPE_ADX_ZERO

#endif  // ZKPIPE_FF_X86_64
