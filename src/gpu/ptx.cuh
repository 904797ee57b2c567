// Thin wrappers over the PTX integer instructions that read and write the carry
// flag, so multi-word arithmetic compiles to one carry chain. The chains rely on
// nothing between two of these touching the flag, which holds because each is a
// volatile asm statement and the compiler never reorders those.
#pragma once

#include <cstdint>

namespace zkpipe::gpu::ptx {

using u32 = std::uint32_t;

__device__ __forceinline__ u32 add_cc(u32 a, u32 b) {
  u32 r;
  asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ __forceinline__ u32 addc_cc(u32 a, u32 b) {
  u32 r;
  asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ __forceinline__ u32 addc(u32 a, u32 b) {
  u32 r;
  asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ __forceinline__ u32 sub_cc(u32 a, u32 b) {
  u32 r;
  asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ __forceinline__ u32 subc_cc(u32 a, u32 b) {
  u32 r;
  asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

__device__ __forceinline__ u32 subc(u32 a, u32 b) {
  u32 r;
  asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

// Wide products as (low, high) word pairs. Each is one asm statement holding the
// low and high halves of the same product over two adjacent words, the shape ptxas
// turns into a single wide multiply-add with carry in and out (IMAD.WIDE.U32.X),
// as seen for the a·b_i products (the m·p(j) ones, p(j) an immediate, still come
// out as two instructions); written as separate mad.lo / madc.hi chains, each
// half was a multiply plus a carry add. The first output is early-clobber: it is written before the
// second instruction reads the inputs.

// (lo, hi) = a·b.
__device__ __forceinline__ void mul_wide(u32& lo, u32& hi, u32 a, u32 b) {
  asm("mul.lo.u32 %0, %2, %3; mul.hi.u32 %1, %2, %3;" : "=&r"(lo), "=r"(hi) : "r"(a), "r"(b));
}

// (lo, hi) += a·b, starting a carry chain.
__device__ __forceinline__ void mad_wide_cc(u32& lo, u32& hi, u32 a, u32 b) {
  asm volatile("mad.lo.cc.u32 %0, %2, %3, %0; madc.hi.cc.u32 %1, %2, %3, %1;" : "+r"(lo), "+r"(hi) : "r"(a), "r"(b));
}

// (lo, hi) += a·b + carry, continuing a carry chain.
__device__ __forceinline__ void madc_wide_cc(u32& lo, u32& hi, u32 a, u32 b) {
  asm volatile("madc.lo.cc.u32 %0, %2, %3, %0; madc.hi.cc.u32 %1, %2, %3, %1;" : "+r"(lo), "+r"(hi) : "r"(a), "r"(b));
}

// (lo, hi) = a·b + (c_lo, c_hi) + carry, continuing a carry chain.
__device__ __forceinline__ void madc_wide_cc(u32& lo, u32& hi, u32 a, u32 b, u32 c_lo, u32 c_hi) {
  asm volatile("madc.lo.cc.u32 %0, %2, %3, %4; madc.hi.cc.u32 %1, %2, %3, %5;"
               : "=&r"(lo), "=r"(hi)
               : "r"(a), "r"(b), "r"(c_lo), "r"(c_hi));
}

// (lo, hi) = a·b + carry, ending a carry chain (it cannot carry out).
__device__ __forceinline__ void madc_wide(u32& lo, u32& hi, u32 a, u32 b) {
  asm volatile("madc.lo.cc.u32 %0, %2, %3, 0; madc.hi.u32 %1, %2, %3, 0;" : "=&r"(lo), "=r"(hi) : "r"(a), "r"(b));
}

}  // namespace zkpipe::gpu::ptx
