#include "gpu/compact.hpp"

#include <cub/device/device_scan.cuh>

#include <bit>
#include <span>
#include <stdexcept>

#include "gpu/cuda_error.hpp"
#include "gpu/device_profile.hpp"

namespace zkpipe::gpu {

namespace {

constexpr unsigned kThreads = launch::kElementwiseThreads;

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// Bits at or above n in the last word are not part of the selection.
__global__ void popcount_kernel(std::uint32_t* counts, const std::uint64_t* words, std::size_t word_count,
                                std::size_t n) {
  const std::size_t w = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (w >= word_count) return;
  std::uint64_t bits = words[w];
  if (w == word_count - 1 && n % 64 != 0) bits &= (std::uint64_t{1} << (n % 64)) - 1;
  counts[w] = static_cast<std::uint32_t>(__popcll(bits));
}

// One thread per value: its rank among the selected ones is its word's offset plus
// the set bits below it in the word. Fr moves as two 16-byte halves.
__global__ void scatter_kernel(uint4* out, const uint4* values, const std::uint64_t* words,
                               const std::uint32_t* offsets, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x;
  if (i >= n) return;
  const std::uint64_t bits = words[i / 64];
  const unsigned bit = i % 64;
  if (((bits >> bit) & 1) == 0) return;
  const std::size_t j = offsets[i / 64] + __popcll(bits & ((std::uint64_t{1} << bit) - 1));
  out[2 * j] = values[2 * i];
  out[2 * j + 1] = values[2 * i + 1];
}

}  // namespace

std::size_t count_selected(const r1cs::DensityBitmap& density, std::size_t n) {
  const auto& words = density.words();
  std::size_t count = 0;
  for (std::size_t w = 0; w < n / 64; ++w) count += static_cast<std::size_t>(std::popcount(words[w]));
  if (n % 64 != 0) count += static_cast<std::size_t>(std::popcount(words[n / 64] & ((std::uint64_t{1} << (n % 64)) - 1)));
  return count;
}

std::size_t DeviceSelect::select(const ff::Fr* values, std::size_t n, const r1cs::DensityBitmap& density, ff::Fr* out,
                                 PinnedStaging& staging, cudaStream_t stream) {
  if (density.size() < n) throw std::invalid_argument("DeviceSelect: density shorter than the values");
  if (n == 0) return 0;
  static_assert(sizeof(ff::Fr) == 2 * sizeof(uint4));
  const std::size_t word_count = (n + 63) / 64;
  words_.reserve(word_count);
  counts_.reserve(word_count);
  offsets_.reserve(word_count);
  staging.upload(words_.data(), std::span<const std::uint64_t>(density.words().data(), word_count), stream);
  popcount_kernel<<<blocks_for(word_count), kThreads, 0, stream>>>(counts_.data(), words_.data(), word_count, n);
  check_launch("popcount_kernel");
  std::size_t temp_bytes = 0;
  check(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, counts_.data(), offsets_.data(), word_count, stream),
        "scan size");
  scan_temp_.reserve(temp_bytes);
  check(cub::DeviceScan::ExclusiveSum(scan_temp_.data(), temp_bytes, counts_.data(), offsets_.data(), word_count,
                                      stream),
        "scan");
  scatter_kernel<<<blocks_for(n), kThreads, 0, stream>>>(reinterpret_cast<uint4*>(out),
                                                          reinterpret_cast<const uint4*>(values), words_.data(),
                                                          offsets_.data(), n);
  check_launch("scatter_kernel");
  return count_selected(density, n);
}

}  // namespace zkpipe::gpu
