// A CUDA device as the rest of the program sees it: whether it can be used, and its
// memory in use as the driver reports it, to print beside the buffer ledger's
// device bytes (the driver's figure also holds the context, kernels' local memory,
// allocations under the ledger's threshold and other processes' memory).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "memory/buffer_ledger.hpp"

namespace zkpipe::gpu {

// A GPU that this build carries no code for: its compute capability and the CMake
// option that builds code for it (architectures.hpp). Not a missing device: asked
// for --backend auto, it is an error, not a quiet fall back to the CPU.
class NoCodeForDevice : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws std::runtime_error naming the problem ("no CUDA device: <driver's reason>",
// or an ordinal out of range) unless device `ordinal` exists, and NoCodeForDevice
// when this build has no code it runs.
void require_device(int ordinal);

// The device's name ("NVIDIA H200"); throws CudaError.
std::string device_name(int ordinal);

// Total minus free memory on the device, and its total (cudaMemGetInfo); throw CudaError.
std::size_t device_memory_used(int ordinal);
std::size_t device_memory_total(int ordinal);

// Device memory the buffers charged to `ledger` may still take on the device: the
// driver's free bytes, or less where the ledger's limit for the device (the
// device-memory budget, --device-memory) leaves less. Throws CudaError.
std::size_t available_device_bytes(const memory::BufferLedger& ledger, int ordinal);

}  // namespace zkpipe::gpu
