// The GPU architectures this build carries code for, and whether a device of a given
// compute capability can run it. Known without a GPU or a driver: the list is the
// build's CMAKE_CUDA_ARCHITECTURES, compiled in.
//
// The rules are CUDA's: machine code (SASS) for sm_XY runs on X.Y and on later minor
// versions of the same major X; arch-specific code (sm_90a, sm_100a) only on exactly
// X.Y; PTX for compute_XY is compiled by the driver for any device of capability X.Y
// or newer (the first run of each kernel then takes the driver's compile time).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zkpipe::gpu {

struct CodeTarget {
  int major = 0;
  int minor = 0;
  bool arch_specific = false;  // the "a" suffix
  bool machine_code = false;   // SASS (cubin)
  bool ptx = false;            // PTX for the driver to compile

  // "sm_90a", "sm_86 + PTX", "PTX compute_120".
  std::string describe() const;
};

// A CMake CUDA_ARCHITECTURES list ("86-real;90a-real;120"): each entry is "XY",
// "XYa", "XY-real" (machine code only) or "XY-virtual" (PTX only); plain "XY" is
// both. Throws std::invalid_argument naming an entry it cannot read.
std::vector<CodeTarget> parse_architectures(std::string_view cmake_list);

// The architectures this build was compiled for (empty in a build without CUDA).
const std::vector<CodeTarget>& built_architectures();

// The code that runs on a device of capability major.minor: machine code first (no
// JIT), else PTX (the target returned has only that kind set); none when the build
// has nothing for it.
std::optional<CodeTarget> target_for(const std::vector<CodeTarget>& targets, int major, int minor);

// "sm_86, sm_90a, sm_120 + PTX": the targets as `zkpipe devices` lists them.
std::string describe_targets(const std::vector<CodeTarget>& targets);

// Why this build cannot run on a device of capability major.minor, with the CMake
// option that builds code for it.
std::string no_code_message(int major, int minor, const std::vector<CodeTarget>& targets);

}  // namespace zkpipe::gpu
