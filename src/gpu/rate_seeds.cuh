// Start values for the throughput probes' dependent chains (device_rates.cu and
// bench_gpu's arithmetic probe): pseudo-random words with the top one cut below both
// moduli. Montgomery form does not matter for timing, and points built from them need
// not be on the curve for a formula's cost.
#pragma once

#include <cstdint>
#include <vector>

#include "gpu/cuda_error.hpp"
#include "gpu/device_buffer.hpp"

namespace zkpipe::gpu {

template <class Field>
DeviceBuffer<Field> rate_seeds(unsigned count) {
  std::vector<Field> host(count);
  std::uint64_t state = 0x9e3779b97f4a7c15;
  for (Field& f : host) {
    for (auto& w : f.v) {
      state = state * 6364136223846793005 + 1442695040888963407;
      w = static_cast<std::uint32_t>(state >> 32);
    }
    f.v[Field::N - 1] &= 0x0fffffff;
  }
  DeviceBuffer<Field> seeds(count);
  check(cudaMemcpy(seeds.data(), host.data(), sizeof(Field) * count, cudaMemcpyHostToDevice), "rate seeds");
  return seeds;
}

}  // namespace zkpipe::gpu
