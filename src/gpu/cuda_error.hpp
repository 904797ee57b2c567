// CUDA runtime errors as exceptions: every runtime call and every launch is checked,
// so a failure surfaces where it happened rather than at some later call.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace zkpipe::gpu {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* what)
      : std::runtime_error(std::string(what) + ": " + cudaGetErrorString(code)), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

inline void check(cudaError_t code, const char* what) {
  if (code != cudaSuccess) throw CudaError(code, what);
}

// After a kernel launch: a bad configuration shows up here, not at the next sync.
inline void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

// The number of CUDA devices, 0 when there is no driver or no device.
inline int device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error
    return 0;
  }
  return n;
}

}  // namespace zkpipe::gpu
