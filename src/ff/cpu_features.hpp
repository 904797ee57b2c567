// Run-time CPU feature detection for the x86-64 assembly kernels.
//
// The answer is fixed for the life of the process, so it is computed once, during
// static initialization, into a const. Code that runs before that initialization
// (another translation unit's static constructors) reads false and takes the
// portable path, which is slower but gives the same results.
#pragma once

#include "ff/limbs.hpp"

#ifdef ZKPIPE_FF_X86_64
#include <cpuid.h>
#endif

namespace zkpipe::ff {

namespace detail {

// Whether CPUID leaf 7, sub-leaf 0, sets all of `bits` in EBX.
inline bool leaf7_ebx_has(unsigned bits) {
#ifdef ZKPIPE_FF_X86_64
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  return (ebx & bits) == bits;
#else
  static_cast<void>(bits);
  return false;
#endif
}

// mulx needs BMI2; adcx / adox need ADX (leaf 7 EBX bits 8 and 19).
inline bool detect_bmi2_adx() { return leaf7_ebx_has((1u << 8) | (1u << 19)); }

// AVX-512 Foundation and IFMA (leaf 7 EBX bits 16 and 21), with the operating system
// saving the opmask and zmm registers (XCR0 bits 1, 2, 5, 6, 7).
inline bool detect_avx512_ifma() {
#ifdef ZKPIPE_FF_X86_64
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  constexpr unsigned kOsxsave = 1u << 27;
  if (!(ecx & kOsxsave)) return false;
  unsigned xcr0_low = 0, xcr0_high = 0;
  __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  constexpr unsigned kZmmState = 0xe6;
  if ((xcr0_low & kZmmState) != kZmmState) return false;
  return leaf7_ebx_has((1u << 16) | (1u << 21));
#else
  return false;
#endif
}

}  // namespace detail

inline const bool kCpuHasBmi2Adx = detail::detect_bmi2_adx();
// Read by the batched curve arithmetic (ff/fp_x8.hpp), like kCpuHasBmi2Adx.
inline const bool kCpuHasAvx512Ifma = detail::detect_avx512_ifma();

}  // namespace zkpipe::ff
