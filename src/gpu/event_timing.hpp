// Timing device work by CUDA events, for benchmarks: after a warm-up call (module
// loading, first allocations), the median of several calls.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "gpu/cuda_error.hpp"
#include "gpu/staging.hpp"

namespace zkpipe::gpu {

// Seconds of one call of `work`, which queues its work on the default stream: the
// median of `runs` calls after one warm-up call.
template <class Work>
double median_event_seconds(Work&& work, int runs) {
  const CudaEvent start(cudaEventDefault);
  const CudaEvent stop(cudaEventDefault);
  work();
  std::vector<double> seconds;
  for (int run = 0; run < runs; ++run) {
    check(cudaEventRecord(start.get()), "record");
    work();
    check(cudaEventRecord(stop.get()), "record");
    check(cudaEventSynchronize(stop.get()), "timed work");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "elapsed");
    seconds.push_back(ms * 1e-3);
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

}  // namespace zkpipe::gpu
