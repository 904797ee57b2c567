#include "bench_arith.hpp"

#include <cstdio>

#include "gpu/cuda_error.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_rates.hpp"
#include "gpu/field.cuh"
#include "gpu/rate_seeds.cuh"
#include "gpu/staging.hpp"

namespace zkpipe::gpu {

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kSteps = 256;

enum class Op { mul, square, sum_of_products };

// Each thread runs a dependent chain of kSteps operations from its own start
// values; the result is stored so the chain cannot be optimised away.
template <Op op>
__global__ void chain_kernel(const Fp* seeds, unsigned seed_count, Fp* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  Fp x = seeds[t % seed_count];
  const Fp y = seeds[(t + 1) % seed_count];
  const Fp z = seeds[(t + 2) % seed_count];
  for (unsigned i = 0; i < kSteps; ++i) {
    if constexpr (op == Op::mul) x = x * y;
    if constexpr (op == Op::square) x = x.square();
    if constexpr (op == Op::sum_of_products) x = Fp::sum_of_products(x, y, z, x);
  }
  out[t] = x;
}

template <Op op>
double ops_per_second(const Fp* seeds, unsigned seed_count, Fp* out, unsigned threads) {
  const CudaEvent start(cudaEventDefault);
  const CudaEvent stop(cudaEventDefault);
  chain_kernel<op><<<threads / kThreads, kThreads>>>(seeds, seed_count, out);  // warm-up
  check_launch("chain_kernel");
  check(cudaEventRecord(start.get()), "record");
  chain_kernel<op><<<threads / kThreads, kThreads>>>(seeds, seed_count, out);
  check_launch("chain_kernel");
  check(cudaEventRecord(stop.get()), "record");
  check(cudaEventSynchronize(stop.get()), "sync");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "elapsed");
  return double(threads) * kSteps / (ms * 1e-3);
}

}  // namespace

void bench_arith() {
  std::printf("\n== Device arithmetic throughput (dependent chains, G operations/s) ==\n");
  int sms = 0;
  int per_sm = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
  check(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, 0), "threads per SM");
  const unsigned threads = static_cast<unsigned>(sms) * static_cast<unsigned>(per_sm) * 4 / kThreads * kThreads;
  constexpr unsigned kSeeds = 1024;
  const DeviceBuffer<Fp> seeds = rate_seeds<Fp>(kSeeds);
  DeviceBuffer<Fp> out(threads);
  const double mul = ops_per_second<Op::mul>(seeds.data(), kSeeds, out.data(), threads);
  const double sqr = ops_per_second<Op::square>(seeds.data(), kSeeds, out.data(), threads);
  const double sop = ops_per_second<Op::sum_of_products>(seeds.data(), kSeeds, out.data(), threads);
  const DeviceRates rates = measure_device_rates(0);
  std::printf("Fp mul %.2f, Fp square %.2f, Fp a*b+c*d %.2f, G1 mixed add %.3f, Fr mul %.2f; device memory %.0f GB/s\n",
              mul * 1e-9, sqr * 1e-9, sop * 1e-9, rates.additions_per_second * 1e-9,
              rates.products_per_second * 1e-9, rates.bytes_per_second * 1e-9);
}

}  // namespace zkpipe::gpu
