// The shape of one Pippenger sum: how the 256 scalar bits are cut into windows and
// how many buckets, segments and scratch elements that takes. Shared by the host
// (scratch estimates, the final Horner combination) and the kernels, so it is plain
// C++ with host-and-device members under nvcc.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#ifdef __CUDACC__
#define ZKPIPE_HOST_DEVICE __host__ __device__
#else
#define ZKPIPE_HOST_DEVICE
#endif

namespace zkpipe::gpu::msm_shape {

using u32 = std::uint32_t;

// Buckets per segment in the reduction (each thread's running sum), and segment
// sums per outer segment: short, because each thread's additions are a chain of
// dependent ones, whose latency bounds the reduction of small MSMs.
constexpr u32 kSegmentBuckets = 16;
constexpr u32 kOuterSegmentLength = 8;
// Threads that sum the scalar-1 points (a power of two, for the tree).
constexpr u32 kOnesThreads = 1u << 16;
// The sign of a digit, in the top bit of a sorted value (the point index below it).
constexpr u32 kNegative = 1u << 31;

// The 256 scalar bits are cut into `windows` windows of near-equal widths (the
// first 256 mod windows are one bit wider), so the top window is as wide as the
// rest: a narrow top window would pour every point into a handful of buckets.
struct WindowShape {
  u32 windows;
  u32 base_bits;
  u32 wider;  // windows with base_bits + 1 bits

  ZKPIPE_HOST_DEVICE u32 bits(u32 w) const { return base_bits + (w < wider ? 1 : 0); }
  ZKPIPE_HOST_DEVICE u32 offset(u32 w) const { return w * base_bits + (w < wider ? w : wider); }
  ZKPIPE_HOST_DEVICE u32 max_bits() const { return base_bits + (wider ? 1 : 0); }
};

inline WindowShape window_shape(u32 c) {
  const u32 windows = (256 + c - 1) / c;
  return {windows, 256 / windows, 256 % windows};
}

// How many of each scratch element a sum of n terms at window width c needs.
struct ScratchCounts {
  WindowShape shape;
  u32 half;             // buckets per window
  u32 buckets;          // over all windows
  std::size_t entries;  // (window, digit) terms to sort
  u32 segment_len;
  u32 segments;           // per window
  u32 outer_segment_len;  // the same split of the segments' plain sums
  u32 outer_segments;

  // Per window: the segments' weighted and plain sums, then the outer segments'.
  std::size_t reduce_points() const { return std::size_t{shape.windows} * (2 * segments + outer_segments); }
};

inline ScratchCounts scratch_counts(std::size_t n, u32 c) {
  const WindowShape shape = window_shape(c);
  const u32 half = 1u << (shape.max_bits() - 1);
  const u32 segment_len = std::min(half, kSegmentBuckets);
  const u32 segments = half / segment_len;
  const u32 outer_segment_len = std::min(segments, kOuterSegmentLength);
  return {shape,       half,     shape.windows * half, static_cast<std::size_t>(shape.windows) * n,
          segment_len, segments, outer_segment_len,    segments / outer_segment_len};
}

}  // namespace zkpipe::gpu::msm_shape
