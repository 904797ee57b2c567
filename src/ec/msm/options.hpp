// Knobs shared by the MSM entry points, and the thread cap that applies them.
#pragma once

#include <tbb/task_arena.h>

#include <cstddef>

namespace zkpipe::ec {

// How buckets accumulate points (see buckets.hpp and batch_affine.hpp).
enum class MsmBuckets {
  automatic,     // batch-affine where it measures faster (larger windows), else XYZZ
  xyzz,          // XYZZ coordinates, one mixed addition per term
  batch_affine,  // affine, additions batched to share one inversion, eight lanes at a
                 // time where the processor has AVX-512 IFMA
  batch_affine_scalar,  // the same batches, one addition at a time (any processor)
};

struct MsmOptions {
  // Most threads to use: 0 = all of the default arena's, 1 = single-threaded.
  std::size_t max_threads = 0;
  // Window size c in bits (1..20); 0 = chosen from the number of terms. Ignored by
  // precomputed bases, whose table fixes c.
  unsigned window_bits = 0;
  MsmBuckets buckets = MsmBuckets::automatic;
};

namespace detail {

// Runs f inside an arena of at most options.max_threads threads (never more than the
// current arena has: oversubscribing only adds contention); f receives the thread count.
template <class F>
auto run_with_thread_cap(const MsmOptions& options, F&& f) {
  const auto available = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
  if (options.max_threads == 0 || options.max_threads >= available) return f(available);
  tbb::task_arena arena(static_cast<int>(options.max_threads));
  return arena.execute([&] { return f(static_cast<std::size_t>(arena.max_concurrency())); });
}

}  // namespace detail

}  // namespace zkpipe::ec
