// A device-memory budget as users write it (--device-memory, the daemon's
// device_memory): one size for every GPU ("16GiB"), or sizes by CUDA ordinal
// ("0=16GiB,1=24GiB"), for hosts whose GPUs differ or are shared differently. A GPU
// not named has no budget: what it has free, less a margin.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace zkpipe::formats {

// The least budget zkpipe works in: below it no partition of any key fits beside
// the CUDA kernels' own scratch.
inline constexpr std::size_t kMinDeviceMemory = std::size_t{256} << 20;

struct DeviceMemoryBudget {
  std::optional<std::size_t> every;      // one size for every GPU
  std::map<int, std::size_t> by_device;  // or sizes by ordinal

  // The budget of that GPU, if any.
  std::optional<std::size_t> of(int ordinal) const;
  bool empty() const { return !every && by_device.empty(); }
  // "16.0 GiB", or "16.0 GiB on device 0, 24.0 GiB on device 1".
  std::string describe() const;

  bool operator==(const DeviceMemoryBudget&) const = default;
};

// Throws std::invalid_argument naming the part that is not a size, not an ordinal,
// below kMinDeviceMemory, or an ordinal named twice.
DeviceMemoryBudget parse_device_memory_budget(std::string_view text);

}  // namespace zkpipe::formats
