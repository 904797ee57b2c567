// How an MSM is cut up: the window size c and the number of point chunks per window.
//
// Work is counted in field multiplications: every (point, window) pair costs one
// addition into a bucket; every (window, chunk) task then reduces its 2^(c-1) buckets,
// at about two additions per bucket. Larger c means fewer windows but more buckets to
// reduce; more chunks means more parallel tasks but more reductions. The window size
// minimizing the total wins. The weights depend on the buckets used at that size:
// XYZZ additions, or batch-affine ones (about 6 multiplications each, nearer 4 when
// computed eight lanes at a time; bench/msm.cpp G1MsmWindow: best c = 13 at 2^16).
#pragma once

#include <algorithm>
#include <cstddef>

#include "ec/msm/digits.hpp"
#include "ff/cpu_features.hpp"

namespace zkpipe::ec::detail {

// Multiplications per XYZZ addition: mixed (madd-2008-s: 8M + 2S), full (add-2008-s:
// 12M + 2S).
inline constexpr double kMixedAddCost = 10.0;
inline constexpr double kFullAddCost = 14.0;
// Per batch-affine addition (Montgomery's trick, λ, λ², y), one at a time and with
// eight lanes of AVX-512 IFMA.
inline constexpr double kBatchAffineAddCost = 6.5;
inline constexpr double kBatchAffineLanesAddCost = 4.0;
// Tasks per thread: enough to even out the last round without many more reductions.
inline constexpr std::size_t kTasksPerThread = 2;
// From this window size on, batch-affine buckets beat XYZZ ones (measured,
// bench/msm.cpp G1MsmWindow, fourth argument); below it the buckets are too few for large batches.
inline constexpr unsigned kBatchAffineMinBits = 9;
// Past this the bucket arrays (2^(c-1) points per task) fall far out of cache.
inline constexpr unsigned kMaxAutoWindowBits = 18;

// Windows handled by one pass when each base is stored in `copies` shifted copies
// (copies == 0: one copy per window).
inline unsigned virtual_windows(const WindowLayout& layout, unsigned copies) {
  if (copies == 0 || copies >= layout.windows()) return 1;
  return (layout.windows() + copies - 1) / copies;
}

inline std::size_t choose_chunks(unsigned virtual_windows, std::size_t points,
                                 std::size_t threads) {
  if (threads <= 1 || points == 0) return 1;
  const std::size_t wanted = kTasksPerThread * threads;
  const std::size_t chunks = (wanted + virtual_windows - 1) / virtual_windows;
  return std::clamp<std::size_t>(chunks, 1, points);
}

// The cost of one addition into a bucket and of reducing one bucket, for the buckets
// that automatic selection uses at this window size.
inline double add_cost(const WindowLayout& layout) {
  if (layout.bits() < kBatchAffineMinBits) return kMixedAddCost;
  return ff::kCpuHasAvx512Ifma ? kBatchAffineLanesAddCost : kBatchAffineAddCost;
}

inline double reduce_cost_per_bucket(const WindowLayout& layout) {
  return layout.bits() < kBatchAffineMinBits ? 2 * kFullAddCost : 2 * add_cost(layout);
}

inline double estimated_cost(const WindowLayout& layout, unsigned copies, std::size_t points,
                             std::size_t threads) {
  const unsigned passes = virtual_windows(layout, copies);
  const std::size_t chunks = choose_chunks(passes, points, threads);
  const double accumulate = static_cast<double>(points) * layout.windows() * add_cost(layout);
  const double reduce = static_cast<double>(passes * chunks) *
                        static_cast<double>(layout.buckets()) * reduce_cost_per_bucket(layout);
  return accumulate + reduce;
}

inline WindowLayout choose_window_layout(std::size_t points, unsigned copies, std::size_t threads) {
  WindowLayout best(WindowLayout::kMinBits);
  double best_cost = estimated_cost(best, copies, points, threads);
  for (unsigned bits = WindowLayout::kMinBits + 1; bits <= kMaxAutoWindowBits; ++bits) {
    WindowLayout candidate(bits);
    const double cost = estimated_cost(candidate, copies, points, threads);
    if (cost < best_cost) {
      best = candidate;
      best_cost = cost;
    }
  }
  return best;
}

}  // namespace zkpipe::ec::detail
