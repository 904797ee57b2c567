#include "gpu/device_memory.hpp"

#include <cuda_runtime.h>

#include <stdexcept>

#include "gpu/cuda_error.hpp"

namespace zkpipe::gpu {

namespace {

// Makes `ordinal` the calling thread's device for one query and restores the
// previous one, so that a probe from a logging thread does not move that thread's
// later CUDA calls to another device.
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

}  // namespace

void require_device(int ordinal) {
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  if (code != cudaSuccess) {
    cudaGetLastError();  // clear the sticky error
    throw std::runtime_error(std::string("no CUDA device: ") + cudaGetErrorString(code));
  }
  if (count == 0) throw std::runtime_error("no CUDA device: the driver reports none");
  if (ordinal < 0 || ordinal >= count) {
    throw std::runtime_error("no CUDA device " + std::to_string(ordinal) + ": this machine has " +
                             std::to_string(count) + " (ordinals 0.." + std::to_string(count - 1) + ")");
  }
}

std::string device_name(int ordinal) {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, ordinal), "cudaGetDeviceProperties");
  return prop.name;
}

std::size_t device_memory_used(int ordinal) {
  ScopedDevice scope(ordinal);
  std::size_t free = 0;
  std::size_t total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return total - free;
}

}  // namespace zkpipe::gpu
