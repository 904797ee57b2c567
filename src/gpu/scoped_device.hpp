// Makes `ordinal` the calling thread's device for one query and restores the
// previous one, so that a probe from a logging thread does not move that thread's
// later CUDA calls to another device.
#pragma once

#include <cuda_runtime.h>

#include "gpu/cuda_error.hpp"

namespace zkpipe::gpu {

class ScopedDevice {
 public:
  explicit ScopedDevice(int ordinal) {
    check(cudaGetDevice(&previous_), "cudaGetDevice");
    check(cudaSetDevice(ordinal), "cudaSetDevice");
  }
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;
  ~ScopedDevice() { cudaSetDevice(previous_); }

 private:
  int previous_ = 0;
};

}  // namespace zkpipe::gpu
