// What zkpipe reads of a GPU to configure its kernels, and the configuration it
// derives from it. Plain data and pure functions (no CUDA runtime), so that the
// choice can be checked without a GPU against the published figures of the cards
// storage providers prove on (tests/gpu/device_profile_test.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace zkpipe::gpu {

struct DeviceProfile {
  std::string name;
  int major = 0;  // compute capability
  int minor = 0;
  int multiprocessors = 0;
  std::size_t memory_bytes = 0;
  // Shared memory one block may use when it opts in (cudaFuncAttributeMaxDynamicSharedMemorySize).
  std::size_t shared_per_block_optin = 0;
  int max_threads_per_block = 0;
  int max_threads_per_multiprocessor = 0;
  int registers_per_multiprocessor = 0;
  int registers_per_block = 0;
  // The PCIe link as the host's PCI tree reports it (sysfs); 0 when unknown.
  int pcie_generation = 0;
  int pcie_width = 0;
};

// The launch shapes of zkpipe's kernels on one device.
struct KernelConfig {
  // The NTT's pass tile: 2^ntt_tile_log elements and their twiddles in shared memory
  // (ntt_shared_bytes), 2^ntt_tile_log / 4 threads.
  unsigned ntt_tile_log = 0;
  std::size_t ntt_shared_bytes = 0;
  unsigned ntt_threads = 0;
};

// Block sizes fixed at compile time, shared by the kernels and the checks below.
namespace launch {
// G1 bucket accumulation: at most 128 registers, four blocks of 128 per SM.
inline constexpr int kG1AccumulateThreads = 128;
inline constexpr int kG1AccumulateMinBlocks = 4;
// G2 points need every register: blocks of 64.
inline constexpr int kG2AccumulateThreads = 64;
inline constexpr int kG2AccumulateMinBlocks = 1;
// The MSM's other kernels, the sparse product and the element-wise NTT kernels.
inline constexpr int kElementwiseThreads = 256;
inline constexpr int kFixedBaseThreads = 128;
// The NTT's smallest and largest pass tiles (log2 of its elements).
inline constexpr unsigned kNttMinTileLog = 4;
inline constexpr unsigned kNttMaxTileLog = 10;
inline constexpr unsigned kNttPreferredTileLog = 9;
inline constexpr unsigned kNttElementsPerThread = 4;
inline constexpr std::size_t kNttBytesPerElement = 64;  // the element and its twiddle (two Fr)
}  // namespace launch

// A kernel's fixed launch requirements (its __launch_bounds__ and block size), as
// compiled: what a device must provide for it to launch at all.
struct KernelRequirement {
  const char* kernel;
  int threads_per_block;
  int min_blocks_per_multiprocessor;  // from __launch_bounds__; 1 when none
  int max_registers_per_thread;       // the compiler's cap for those bounds
};

// The kernels whose shapes are fixed at compile time (block sizes, launch bounds).
const std::vector<KernelRequirement>& fixed_kernel_requirements();

// The configuration for this device: the NTT tile the fastest measured (2^9) unless
// the device's shared memory or block size cannot hold it, then the largest that
// fits. Throws std::runtime_error naming the device when not even the smallest fits.
KernelConfig choose_kernel_config(const DeviceProfile& device);

// What would fail on this device with this configuration (empty when nothing): a
// tile beyond the shared memory or threads a block may have, a fixed kernel whose
// block or launch bounds the device cannot hold.
std::vector<std::string> config_problems(const KernelConfig& config, const DeviceProfile& device);

// "NVIDIA GeForce RTX 4090, compute capability 8.9, 24.0 GiB, 128 SMs, PCIe gen 4 x16".
std::string describe_profile(const DeviceProfile& device);

}  // namespace zkpipe::gpu
