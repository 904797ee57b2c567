// Modular addition and subtraction for 4- and 6-limb moduli in x86-64 assembly
// (baseline instructions only: add/adc, sub/sbb, cmov).
//
// The portable C++ versions cost about 30 cycles for 6 limbs: GCC turns the
// branch-free select into vector code and the mixed-width stores and loads stall
// store-to-load forwarding. Here every limb stays in a general register and the
// select is one cmov per limb, which is branch-free, so the constant-time
// property of the portable code is kept.
//
// b is read through a pointer (one register, where a memory operand per limb could
// take two for base and index): twelve registers already hold the limbs.
//
// Both need 2p < 2^(64N), which MontField already asserts, so a + b never carries
// out of N words.
#pragma once

#include "ff/limbs.hpp"

#ifdef ZKPIPE_FF_X86_64

// r += b (carry chain) for limb I; OP is addq for the lowest limb, adcq otherwise.
#define ZKPIPE_MOD_ADD_LIMB(OP, I) OP " 8*" #I "(%[b]), %[r" #I "]\n\t"
// s = r - p for limb I, chained through the borrow.
#define ZKPIPE_MOD_SUB_P_LIMB(OP, I) \
  "movq %[r" #I "], %[s" #I "]\n\t" OP " %[p" #I "], %[s" #I "]\n\t"
// Keep r - p unless it borrowed, i.e. unless r < p.
#define ZKPIPE_MOD_TAKE(I) "cmovncq %[s" #I "], %[r" #I "]\n\t"
// r -= b for limb I, chained through the borrow.
#define ZKPIPE_MOD_SUB_LIMB(OP, I) OP " 8*" #I "(%[b]), %[r" #I "]\n\t"
// s = p when the subtraction borrowed (s was zeroed beforehand), else 0.
#define ZKPIPE_MOD_P_IF_BORROW(I) "cmovcq %[p" #I "], %[s" #I "]\n\t"
#define ZKPIPE_MOD_ZERO(I) "xorl %k[s" #I "], %k[s" #I "]\n\t"
#define ZKPIPE_MOD_ADD_BACK(OP, I) OP " %[s" #I "], %[r" #I "]\n\t"

namespace zkpipe::ff::detail {

template <std::size_t N>
inline constexpr bool kHasAsmModAdd = N == 4 || N == 6;

// (a + b) mod p for a, b < p.
template <std::size_t N, const Limbs<N>& kP>
[[gnu::always_inline]] inline Limbs<N> mod_add_x86(const Limbs<N>& a, const Limbs<N>& b) {
  static_assert(kHasAsmModAdd<N>);
  if constexpr (N == 4) {
    u64 r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3];
    u64 s0, s1, s2, s3;
    asm(ZKPIPE_MOD_ADD_LIMB("addq", 0) ZKPIPE_MOD_ADD_LIMB("adcq", 1)
        ZKPIPE_MOD_ADD_LIMB("adcq", 2) ZKPIPE_MOD_ADD_LIMB("adcq", 3)
        ZKPIPE_MOD_SUB_P_LIMB("subq", 0) ZKPIPE_MOD_SUB_P_LIMB("sbbq", 1)
        ZKPIPE_MOD_SUB_P_LIMB("sbbq", 2) ZKPIPE_MOD_SUB_P_LIMB("sbbq", 3)
        ZKPIPE_MOD_TAKE(0) ZKPIPE_MOD_TAKE(1) ZKPIPE_MOD_TAKE(2) ZKPIPE_MOD_TAKE(3)
        : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3),
          [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
        : [b] "r"(b.data()), [p0] "m"(kP[0]), [p1] "m"(kP[1]), [p2] "m"(kP[2]), [p3] "m"(kP[3])
        : "cc", "memory");
    return {r0, r1, r2, r3};
  } else {
    u64 r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], r4 = a[4], r5 = a[5];
    u64 s0, s1, s2, s3, s4, s5;
    asm(ZKPIPE_MOD_ADD_LIMB("addq", 0) ZKPIPE_MOD_ADD_LIMB("adcq", 1)
        ZKPIPE_MOD_ADD_LIMB("adcq", 2) ZKPIPE_MOD_ADD_LIMB("adcq", 3)
        ZKPIPE_MOD_ADD_LIMB("adcq", 4) ZKPIPE_MOD_ADD_LIMB("adcq", 5)
        ZKPIPE_MOD_SUB_P_LIMB("subq", 0) ZKPIPE_MOD_SUB_P_LIMB("sbbq", 1)
        ZKPIPE_MOD_SUB_P_LIMB("sbbq", 2) ZKPIPE_MOD_SUB_P_LIMB("sbbq", 3)
        ZKPIPE_MOD_SUB_P_LIMB("sbbq", 4) ZKPIPE_MOD_SUB_P_LIMB("sbbq", 5)
        ZKPIPE_MOD_TAKE(0) ZKPIPE_MOD_TAKE(1) ZKPIPE_MOD_TAKE(2) ZKPIPE_MOD_TAKE(3)
        ZKPIPE_MOD_TAKE(4) ZKPIPE_MOD_TAKE(5)
        : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4),
          [r5] "+&r"(r5), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
          [s4] "=&r"(s4), [s5] "=&r"(s5)
        : [b] "r"(b.data()), [p0] "m"(kP[0]), [p1] "m"(kP[1]), [p2] "m"(kP[2]), [p3] "m"(kP[3]),
          [p4] "m"(kP[4]), [p5] "m"(kP[5])
        : "cc", "memory");
    return {r0, r1, r2, r3, r4, r5};
  }
}

// (a - b) mod p for a, b < p: p is added back exactly when a - b borrowed.
template <std::size_t N, const Limbs<N>& kP>
[[gnu::always_inline]] inline Limbs<N> mod_sub_x86(const Limbs<N>& a, const Limbs<N>& b) {
  static_assert(kHasAsmModAdd<N>);
  if constexpr (N == 4) {
    u64 r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3];
    u64 s0, s1, s2, s3;
    asm(ZKPIPE_MOD_ZERO(0) ZKPIPE_MOD_ZERO(1) ZKPIPE_MOD_ZERO(2) ZKPIPE_MOD_ZERO(3)
        ZKPIPE_MOD_SUB_LIMB("subq", 0) ZKPIPE_MOD_SUB_LIMB("sbbq", 1)
        ZKPIPE_MOD_SUB_LIMB("sbbq", 2) ZKPIPE_MOD_SUB_LIMB("sbbq", 3)
        ZKPIPE_MOD_P_IF_BORROW(0) ZKPIPE_MOD_P_IF_BORROW(1) ZKPIPE_MOD_P_IF_BORROW(2)
        ZKPIPE_MOD_P_IF_BORROW(3)
        ZKPIPE_MOD_ADD_BACK("addq", 0) ZKPIPE_MOD_ADD_BACK("adcq", 1)
        ZKPIPE_MOD_ADD_BACK("adcq", 2) ZKPIPE_MOD_ADD_BACK("adcq", 3)
        : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3),
          [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3)
        : [b] "r"(b.data()), [p0] "m"(kP[0]), [p1] "m"(kP[1]), [p2] "m"(kP[2]), [p3] "m"(kP[3])
        : "cc", "memory");
    return {r0, r1, r2, r3};
  } else {
    u64 r0 = a[0], r1 = a[1], r2 = a[2], r3 = a[3], r4 = a[4], r5 = a[5];
    u64 s0, s1, s2, s3, s4, s5;
    asm(ZKPIPE_MOD_ZERO(0) ZKPIPE_MOD_ZERO(1) ZKPIPE_MOD_ZERO(2) ZKPIPE_MOD_ZERO(3)
        ZKPIPE_MOD_ZERO(4) ZKPIPE_MOD_ZERO(5)
        ZKPIPE_MOD_SUB_LIMB("subq", 0) ZKPIPE_MOD_SUB_LIMB("sbbq", 1)
        ZKPIPE_MOD_SUB_LIMB("sbbq", 2) ZKPIPE_MOD_SUB_LIMB("sbbq", 3)
        ZKPIPE_MOD_SUB_LIMB("sbbq", 4) ZKPIPE_MOD_SUB_LIMB("sbbq", 5)
        ZKPIPE_MOD_P_IF_BORROW(0) ZKPIPE_MOD_P_IF_BORROW(1) ZKPIPE_MOD_P_IF_BORROW(2)
        ZKPIPE_MOD_P_IF_BORROW(3) ZKPIPE_MOD_P_IF_BORROW(4) ZKPIPE_MOD_P_IF_BORROW(5)
        ZKPIPE_MOD_ADD_BACK("addq", 0) ZKPIPE_MOD_ADD_BACK("adcq", 1)
        ZKPIPE_MOD_ADD_BACK("adcq", 2) ZKPIPE_MOD_ADD_BACK("adcq", 3)
        ZKPIPE_MOD_ADD_BACK("adcq", 4) ZKPIPE_MOD_ADD_BACK("adcq", 5)
        : [r0] "+&r"(r0), [r1] "+&r"(r1), [r2] "+&r"(r2), [r3] "+&r"(r3), [r4] "+&r"(r4),
          [r5] "+&r"(r5), [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3),
          [s4] "=&r"(s4), [s5] "=&r"(s5)
        : [b] "r"(b.data()), [p0] "m"(kP[0]), [p1] "m"(kP[1]), [p2] "m"(kP[2]), [p3] "m"(kP[3]),
          [p4] "m"(kP[4]), [p5] "m"(kP[5])
        : "cc", "memory");
    return {r0, r1, r2, r3, r4, r5};
  }
}

}  // namespace zkpipe::ff::detail

#undef ZKPIPE_MOD_ADD_BACK
#undef ZKPIPE_MOD_ZERO
#undef ZKPIPE_MOD_P_IF_BORROW
#undef ZKPIPE_MOD_SUB_LIMB
#undef ZKPIPE_MOD_TAKE
#undef ZKPIPE_MOD_SUB_P_LIMB
#undef ZKPIPE_MOD_ADD_LIMB

#endif  // ZKPIPE_FF_X86_64
