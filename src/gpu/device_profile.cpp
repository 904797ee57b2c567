#include "gpu/device_profile.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace zkpipe::gpu {

namespace {

// Every NVIDIA GPU since Kepler has 64 K 32-bit registers per multiprocessor and
// per block; the compiler fits a kernel's launch bounds into that.
constexpr int kRegisterFile = 64 * 1024;
constexpr int kMaxRegistersPerThread = 255;

int register_cap(int threads, int min_blocks) {
  const int per_thread = kRegisterFile / (threads * min_blocks);
  return std::min(kMaxRegistersPerThread, per_thread - per_thread % 8);
}

std::size_t ntt_shared_bytes(unsigned tile_log) { return launch::kNttBytesPerElement << tile_log; }
unsigned ntt_threads(unsigned tile_log) { return (1u << tile_log) / launch::kNttElementsPerThread; }

bool ntt_tile_fits(unsigned tile_log, const DeviceProfile& d) {
  return ntt_shared_bytes(tile_log) <= d.shared_per_block_optin &&
         static_cast<int>(ntt_threads(tile_log)) <= d.max_threads_per_block;
}

}  // namespace

const std::vector<KernelRequirement>& fixed_kernel_requirements() {
  using namespace launch;
  static const std::vector<KernelRequirement> kernels = {
      {"G1 bucket accumulation", kG1AccumulateThreads, kG1AccumulateMinBlocks,
       register_cap(kG1AccumulateThreads, kG1AccumulateMinBlocks)},
      {"G2 bucket accumulation", kG2AccumulateThreads, kG2AccumulateMinBlocks,
       register_cap(kG2AccumulateThreads, kG2AccumulateMinBlocks)},
      {"element-wise kernels", kElementwiseThreads, 1, kMaxRegistersPerThread},
      {"fixed-base products", kFixedBaseThreads, 1, kMaxRegistersPerThread},
  };
  return kernels;
}

KernelConfig choose_kernel_config(const DeviceProfile& device) {
  unsigned tile = launch::kNttPreferredTileLog;
  while (tile > launch::kNttMinTileLog && !ntt_tile_fits(tile, device)) --tile;
  if (!ntt_tile_fits(tile, device)) {
    throw std::runtime_error("CUDA device " + device.name + " holds no NTT tile: " +
                             std::to_string(device.shared_per_block_optin) + " bytes of shared memory and " +
                             std::to_string(device.max_threads_per_block) + " threads per block, the smallest tile needs " +
                             std::to_string(ntt_shared_bytes(tile)) + " and " + std::to_string(ntt_threads(tile)));
  }
  return {tile, ntt_shared_bytes(tile), ntt_threads(tile)};
}

std::vector<std::string> config_problems(const KernelConfig& config, const DeviceProfile& device) {
  std::vector<std::string> problems;
  if (config.ntt_tile_log < launch::kNttMinTileLog || config.ntt_tile_log > launch::kNttMaxTileLog) {
    problems.push_back("NTT tile 2^" + std::to_string(config.ntt_tile_log) + " is outside the kernel's range");
  }
  if (config.ntt_shared_bytes != ntt_shared_bytes(config.ntt_tile_log) ||
      config.ntt_threads != ntt_threads(config.ntt_tile_log)) {
    problems.push_back("NTT tile 2^" + std::to_string(config.ntt_tile_log) + " with the wrong shared memory or threads");
  }
  if (config.ntt_shared_bytes > device.shared_per_block_optin) {
    problems.push_back("NTT tile needs " + std::to_string(config.ntt_shared_bytes) + " bytes of shared memory, " +
                       device.name + " gives a block " + std::to_string(device.shared_per_block_optin));
  }
  if (static_cast<int>(config.ntt_threads) > device.max_threads_per_block) {
    problems.push_back("NTT tile needs " + std::to_string(config.ntt_threads) + " threads per block");
  }
  for (const KernelRequirement& k : fixed_kernel_requirements()) {
    const std::string what = std::string(k.kernel) + ": ";
    if (k.threads_per_block > device.max_threads_per_block) {
      problems.push_back(what + std::to_string(k.threads_per_block) + " threads per block, the device allows " +
                         std::to_string(device.max_threads_per_block));
    }
    if (k.threads_per_block * k.min_blocks_per_multiprocessor > device.max_threads_per_multiprocessor) {
      problems.push_back(what + std::to_string(k.min_blocks_per_multiprocessor) + " resident blocks of " +
                         std::to_string(k.threads_per_block) + " exceed the multiprocessor's threads");
    }
    const long registers = static_cast<long>(k.max_registers_per_thread) * k.threads_per_block;
    if (registers > device.registers_per_block ||
        registers * k.min_blocks_per_multiprocessor > device.registers_per_multiprocessor) {
      problems.push_back(what + std::to_string(registers) + " registers per block, " +
                         std::to_string(k.min_blocks_per_multiprocessor) + " blocks per multiprocessor do not fit");
    }
  }
  return problems;
}

std::string describe_profile(const DeviceProfile& device) {
  char memory[32];
  std::snprintf(memory, sizeof memory, "%.1f GiB", static_cast<double>(device.memory_bytes) / (1u << 30));
  std::string text = device.name + ", compute capability " + std::to_string(device.major) + "." +
                     std::to_string(device.minor) + ", " + memory + ", " + std::to_string(device.multiprocessors) +
                     " SMs";
  if (device.pcie_generation > 0) {
    text += ", PCIe gen " + std::to_string(device.pcie_generation) + " x" + std::to_string(device.pcie_width);
  } else {
    text += ", PCIe link unknown";
  }
  return text;
}

}  // namespace zkpipe::gpu
