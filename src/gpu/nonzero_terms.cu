#include "gpu/nonzero_terms.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <bit>
#include <numeric>

#include "gpu/cuda_error.hpp"
#include "gpu/device_profile.hpp"
#include "gpu/field.cuh"

namespace zkpipe::gpu {

namespace {

constexpr unsigned kThreads = launch::kElementwiseThreads;
static_assert(kThreads % 32 == 0, "whole warps: each writes one word");

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// One warp per word: each lane tests one scalar and the ballot is the word.
__global__ void nonzero_bitmap_kernel(const Fr* scalars, std::size_t n, u32* words) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const bool set = i < n && !scalars[i].is_zero();
  const u32 word = __ballot_sync(0xffffffffu, set);
  if (threadIdx.x % 32 == 0 && i < n) words[i / 32] = word;
}

__global__ void gather_kernel(const Fr* scalars, const u32* indices, std::size_t count, Fr* out) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (j < count) out[j] = scalars[indices[j]];
}

// Words per task of the host's index scan.
constexpr std::size_t kWordsPerTask = std::size_t{1} << 14;

}  // namespace

void nonzero_bitmap(const ff::Fr* scalars, std::size_t n, std::uint32_t* words, cudaStream_t stream) {
  if (n == 0) return;
  nonzero_bitmap_kernel<<<blocks_for(n), kThreads, 0, stream>>>(reinterpret_cast<const Fr*>(scalars), n, words);
  check_launch("nonzero_bitmap_kernel");
}

void gather_scalars(const ff::Fr* scalars, const std::uint32_t* indices, std::size_t count, ff::Fr* out,
                    cudaStream_t stream) {
  if (count == 0) return;
  gather_kernel<<<blocks_for(count), kThreads, 0, stream>>>(reinterpret_cast<const Fr*>(scalars), indices, count,
                                                            reinterpret_cast<Fr*>(out));
  check_launch("gather_kernel");
}

SetBits set_bits(std::span<const std::uint32_t> words, std::size_t n) {
  const std::size_t word_count = (n + 31) / 32;
  const std::size_t tasks = (word_count + kWordsPerTask - 1) / kWordsPerTask;
  auto word_at = [&](std::size_t w) {
    const std::uint32_t bits = words[w];
    const std::size_t valid = n - w * 32;
    return valid >= 32 ? bits : bits & ((1u << valid) - 1);
  };
  std::vector<std::size_t> offsets(tasks + 1, 0);
  tbb::parallel_for(std::size_t{0}, tasks, [&](std::size_t t) {
    std::size_t count = 0;
    for (std::size_t w = t * kWordsPerTask; w < std::min(word_count, (t + 1) * kWordsPerTask); ++w) {
      count += static_cast<std::size_t>(std::popcount(word_at(w)));
    }
    offsets[t + 1] = count;
  });
  std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
  SetBits out{offsets[tasks], {}};
  if (out.count == n) return out;
  out.indices.resize(out.count);
  tbb::parallel_for(std::size_t{0}, tasks, [&](std::size_t t) {
    std::size_t at = offsets[t];
    for (std::size_t w = t * kWordsPerTask; w < std::min(word_count, (t + 1) * kWordsPerTask); ++w) {
      for (std::uint32_t bits = word_at(w); bits != 0; bits &= bits - 1) {
        out.indices[at++] = static_cast<std::uint32_t>(w * 32 + static_cast<std::size_t>(std::countr_zero(bits)));
      }
    }
  });
  return out;
}

}  // namespace zkpipe::gpu
