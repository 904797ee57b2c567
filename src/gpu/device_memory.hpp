// A CUDA device as the rest of the program sees it: whether it can be used, and its
// memory in use as the driver reports it, to print beside the buffer ledger's
// device bytes (the driver's figure also holds the context, kernels' local memory,
// allocations under the ledger's threshold and other processes' memory).
#pragma once

#include <cstddef>
#include <string>

namespace zkpipe::gpu {

// Throws std::runtime_error naming the problem ("no CUDA device: <driver's reason>",
// or an ordinal out of range) unless device `ordinal` exists.
void require_device(int ordinal);

// The device's name ("NVIDIA H200"); throws CudaError.
std::string device_name(int ordinal);

// Total minus free memory on the device (cudaMemGetInfo); throws CudaError.
std::size_t device_memory_used(int ordinal);

}  // namespace zkpipe::gpu
