// The GPUs of this machine as the CUDA driver and the PCI tree describe them, and
// whether this build's code runs on each.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpu/architectures.hpp"
#include "gpu/device_profile.hpp"

namespace zkpipe::gpu {

// How many devices the driver reports; nullopt with the driver's reason when it
// cannot tell (no driver, no device node).
struct DeviceCount {
  int count = 0;
  std::string error;  // empty when the driver answered
};
DeviceCount count_devices();

// Device `ordinal`'s properties, its PCIe link read from sysfs where the host shows
// it; throws CudaError.
DeviceProfile query_profile(int ordinal);

// Memory free on the device now (cudaMemGetInfo); throws CudaError.
std::size_t device_free_bytes(int ordinal);

// The code of this build that the driver picks for the device (a kernel's attributes
// answer, not the rules of architectures.hpp): the target it runs, or nothing when
// the build has no code the device can run.
std::optional<CodeTarget> code_for_device(int ordinal);

}  // namespace zkpipe::gpu
