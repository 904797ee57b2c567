// The terms of a device MSM whose scalars are not zero, for a streamed MSM (bases in
// host memory) that sends only their bases: a Filecoin witness is about half zeros,
// so half of the L and A queries' points need never cross the link.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace zkpipe::gpu {

// Bit i % 32 of words[i / 32] is set when scalars[i] is not zero, for i < n (the
// last word's high bits are clear); words has (n + 31) / 32 entries. Device pointers;
// queued on stream.
void nonzero_bitmap(const ff::Fr* scalars, std::size_t n, std::uint32_t* words, cudaStream_t stream);

// out[j] = scalars[indices[j]] for j < count. Device pointers; queued on stream.
void gather_scalars(const ff::Fr* scalars, const std::uint32_t* indices, std::size_t count, ff::Fr* out,
                    cudaStream_t stream);

// The set bits among the first n bits of words, counted on the host's threads; their
// indices, ascending, unless every bit is set (then the list is left empty, not
// written: a dense MSM sends its points in runs).
struct SetBits {
  std::size_t count = 0;
  std::vector<std::uint32_t> indices;
};
SetBits set_bits(std::span<const std::uint32_t> words, std::size_t n);

}  // namespace zkpipe::gpu
