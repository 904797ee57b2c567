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

// mulx needs BMI2; adcx / adox need ADX (CPUID leaf 7, sub-leaf 0, EBX bits 8 and 19).
inline bool detect_bmi2_adx() {
#ifdef ZKPIPE_FF_X86_64
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  constexpr unsigned kBmi2 = 1u << 8;
  constexpr unsigned kAdx = 1u << 19;
  return (ebx & kBmi2) && (ebx & kAdx);
#else
  return false;
#endif
}

}  // namespace detail

inline const bool kCpuHasBmi2Adx = detail::detect_bmi2_adx();

}  // namespace zkpipe::ff
