#include "gpu/device_memory.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>

#include "gpu/cuda_error.hpp"
#include "gpu/device_query.hpp"
#include "gpu/scoped_device.hpp"

namespace zkpipe::gpu {

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
  if (!code_for_device(ordinal)) {
    const DeviceProfile profile = query_profile(ordinal);
    throw NoCodeForDevice("CUDA device " + std::to_string(ordinal) + " (" + profile.name + "): " +
                          no_code_message(profile.major, profile.minor, built_architectures()));
  }
}

std::string device_name(int ordinal) {
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, ordinal), "cudaGetDeviceProperties");
  return prop.name;
}

namespace {

struct MemoryInfo {
  std::size_t free = 0;
  std::size_t total = 0;
};

MemoryInfo memory_info(int ordinal) {
  ScopedDevice scope(ordinal);
  MemoryInfo info;
  check(cudaMemGetInfo(&info.free, &info.total), "cudaMemGetInfo");
  return info;
}

}  // namespace

std::size_t device_memory_used(int ordinal) {
  const MemoryInfo info = memory_info(ordinal);
  return info.total - info.free;
}

std::size_t device_memory_total(int ordinal) { return memory_info(ordinal).total; }

std::size_t available_device_bytes(const memory::BufferLedger& ledger, int ordinal) {
  const std::size_t free = memory_info(ordinal).free;
  const std::size_t limit = ledger.device_limit(ordinal);
  if (limit == 0) return free;
  const std::size_t held = ledger.device_bytes(ordinal);
  return std::min(free, limit > held ? limit - held : 0);
}

}  // namespace zkpipe::gpu
