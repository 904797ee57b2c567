#include "gpu/host_registration.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <utility>

namespace zkpipe::gpu {

namespace {

struct PageRange {
  std::uintptr_t begin;
  std::uintptr_t end;
};

// Rounded out to pages, sorted, and merged where they meet: the driver refuses to
// register a page twice.
std::vector<PageRange> page_ranges(std::span<const HostRegistration::Range> ranges) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  std::vector<PageRange> out;
  for (const auto& r : ranges) {
    if (r.bytes == 0) continue;
    const auto begin = reinterpret_cast<std::uintptr_t>(r.data);
    out.push_back({begin / page * page, (begin + r.bytes + page - 1) / page * page});
  }
  std::sort(out.begin(), out.end(), [](const PageRange& x, const PageRange& y) { return x.begin < y.begin; });
  std::vector<PageRange> merged;
  for (const PageRange& r : out) {
    if (!merged.empty() && r.begin <= merged.back().end) {
      merged.back().end = std::max(merged.back().end, r.end);
    } else {
      merged.push_back(r);
    }
  }
  return merged;
}

std::string refusal(const char* what, cudaError_t code) {
  cudaGetLastError();  // not sticky: clear it for the caller's next call
  return std::string(what) + ": " + cudaGetErrorString(code);
}

}  // namespace

HostRegistration::HostRegistration(std::span<const Range> ranges) {
  int device = 0;
  int supported = 0;
  int read_only = 0;
  if (const cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) {
    failure_ = refusal("cudaGetDevice", e);
    return;
  }
  cudaDeviceGetAttribute(&supported, cudaDevAttrHostRegisterSupported, device);
  cudaDeviceGetAttribute(&read_only, cudaDevAttrHostRegisterReadOnlySupported, device);
  if (supported == 0 || read_only == 0) {
    cudaGetLastError();
    failure_ = "the device cannot map registered read-only host memory";
    return;
  }
  for (const PageRange& r : page_ranges(ranges)) {
    auto* begin = reinterpret_cast<std::byte*>(r.begin);
    const std::size_t bytes = r.end - r.begin;
    if (const cudaError_t e = cudaHostRegister(
            begin, bytes, cudaHostRegisterPortable | cudaHostRegisterMapped | cudaHostRegisterReadOnly);
        e != cudaSuccess) {
      failure_ = refusal("cudaHostRegister", e);
      unregister_all();
      return;
    }
    void* device_begin = nullptr;
    if (const cudaError_t e = cudaHostGetDevicePointer(&device_begin, begin, 0); e != cudaSuccess) {
      cudaHostUnregister(begin);
      failure_ = refusal("cudaHostGetDevicePointer", e);
      unregister_all();
      return;
    }
    regions_.push_back({begin, begin + bytes, static_cast<std::byte*>(device_begin)});
  }
}

HostRegistration::~HostRegistration() { unregister_all(); }

HostRegistration::HostRegistration(HostRegistration&& other) noexcept
    : regions_(std::exchange(other.regions_, {})), failure_(std::move(other.failure_)) {}

HostRegistration& HostRegistration::operator=(HostRegistration&& other) noexcept {
  if (this != &other) {
    unregister_all();
    regions_ = std::exchange(other.regions_, {});
    failure_ = std::move(other.failure_);
  }
  return *this;
}

std::size_t HostRegistration::bytes() const {
  std::size_t total = 0;
  for (const Region& r : regions_) total += static_cast<std::size_t>(r.host_end - r.host_begin);
  return total;
}

const void* HostRegistration::device_address(const void* p, std::size_t bytes) const {
  const auto* begin = static_cast<const std::byte*>(p);
  for (const Region& r : regions_) {
    if (begin >= r.host_begin && begin <= r.host_end && bytes <= static_cast<std::size_t>(r.host_end - begin)) {
      return r.device_begin + (begin - r.host_begin);
    }
  }
  return nullptr;
}

void HostRegistration::unregister_all() noexcept {
  for (const Region& r : regions_) cudaHostUnregister(r.host_begin);
  regions_.clear();
}

}  // namespace zkpipe::gpu
