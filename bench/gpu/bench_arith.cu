#include "bench_arith.hpp"

#include <cstdio>
#include <vector>

#include "gpu/cuda_error.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/field.cuh"
#include "gpu/g1.cuh"
#include "gpu/staging.hpp"

namespace zkpipe::gpu {

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kSteps = 256;

enum class Op { mul, square, sum_of_products, mixed_add };

// Each thread runs a dependent chain of kSteps operations from its own start
// values; the result is stored so the chain cannot be optimised away.
template <Op op>
__global__ void chain_kernel(const Fp* seeds, unsigned seed_count, Fp* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  Fp x = seeds[t % seed_count];
  const Fp y = seeds[(t + 1) % seed_count];
  const Fp z = seeds[(t + 2) % seed_count];
  if constexpr (op == Op::mixed_add) {
    G1Xyzz acc = G1Xyzz::from_affine({x, y});
    const G1Affine q{seeds[(t + 3) % seed_count], z};
    for (unsigned i = 0; i < kSteps; ++i) acc = acc.add_affine(q);
    out[t] = acc.X + acc.Y + acc.ZZ + acc.ZZZ;
  } else {
    for (unsigned i = 0; i < kSteps; ++i) {
      if constexpr (op == Op::mul) x = x * y;
      if constexpr (op == Op::square) x = x.square();
      if constexpr (op == Op::sum_of_products) x = Fp::sum_of_products(x, y, z, x);
    }
    out[t] = x;
  }
}

// The same chain over Fr, the NTT's field.
__global__ void fr_chain_kernel(const Fr* seeds, unsigned seed_count, Fr* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  Fr x = seeds[t % seed_count];
  const Fr y = seeds[(t + 1) % seed_count];
  for (unsigned i = 0; i < kSteps; ++i) x = x * y;
  out[t] = x;
}

// Seconds of one call of launch (work queued on the default stream), after a warm-up call.
template <class Launch>
double launch_seconds(Launch&& launch) {
  const CudaEvent start(cudaEventDefault);
  const CudaEvent stop(cudaEventDefault);
  launch();
  check(cudaEventRecord(start.get()), "record");
  launch();
  check(cudaEventRecord(stop.get()), "record");
  check(cudaEventSynchronize(stop.get()), "sync");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "elapsed");
  return ms * 1e-3;
}

// Pseudo-random words, the top one cut below both moduli: Montgomery form does not
// matter for timing, and G1 coordinates need not be on the curve for a formula's cost.
template <class Field>
std::vector<Field> seed_values(unsigned count) {
  std::vector<Field> out(count);
  std::uint64_t state = 0x9e3779b97f4a7c15;
  for (Field& f : out) {
    for (u32& w : f.v) {
      state = state * 6364136223846793005 + 1442695040888963407;
      w = static_cast<u32>(state >> 32);
    }
    f.v[Field::N - 1] &= 0x0fffffff;
  }
  return out;
}

unsigned chain_threads() {
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
  return static_cast<unsigned>(sms) * 2048 * 4;
}

template <Op op>
double ops_per_second(const Fp* seeds, unsigned seed_count, Fp* out, unsigned threads) {
  const double s = launch_seconds([&] {
    chain_kernel<op><<<threads / kThreads, kThreads>>>(seeds, seed_count, out);
    check_launch("chain_kernel");
  });
  return double(threads) * kSteps / s;
}

constexpr unsigned kSeeds = 1024;

}  // namespace

DeviceRates measure_device_rates() {
  DeviceRates rates;
  constexpr std::size_t kCopyBytes = std::size_t{1} << 30;
  {
    DeviceBuffer<std::byte> from(kCopyBytes);
    DeviceBuffer<std::byte> to(kCopyBytes);
    check(cudaMemset(from.data(), 1, kCopyBytes), "fill");
    const double s = launch_seconds([&] {
      check(cudaMemcpyAsync(to.data(), from.data(), kCopyBytes, cudaMemcpyDeviceToDevice), "copy");
    });
    rates.bytes_per_second = 2.0 * kCopyBytes / s;
  }
  const unsigned threads = chain_threads();
  {
    const std::vector<Fr> host = seed_values<Fr>(kSeeds);
    DeviceBuffer<Fr> seeds(kSeeds);
    DeviceBuffer<Fr> out(threads);
    check(cudaMemcpy(seeds.data(), host.data(), sizeof(Fr) * kSeeds, cudaMemcpyHostToDevice), "seeds");
    const double s = launch_seconds([&] {
      fr_chain_kernel<<<threads / kThreads, kThreads>>>(seeds.data(), kSeeds, out.data());
      check_launch("fr_chain_kernel");
    });
    rates.products_per_second = double(threads) * kSteps / s;
  }
  const std::vector<Fp> host = seed_values<Fp>(kSeeds);
  DeviceBuffer<Fp> seeds(kSeeds);
  DeviceBuffer<Fp> out(threads);
  check(cudaMemcpy(seeds.data(), host.data(), sizeof(Fp) * kSeeds, cudaMemcpyHostToDevice), "seeds");
  rates.additions_per_second = ops_per_second<Op::mixed_add>(seeds.data(), kSeeds, out.data(), threads);
  return rates;
}

void bench_arith() {
  std::printf("\n== Device arithmetic throughput (dependent chains, G operations/s) ==\n");
  const unsigned threads = chain_threads();
  const std::vector<Fp> host = seed_values<Fp>(kSeeds);
  DeviceBuffer<Fp> seeds(kSeeds);
  DeviceBuffer<Fp> out(threads);
  check(cudaMemcpy(seeds.data(), host.data(), sizeof(Fp) * kSeeds, cudaMemcpyHostToDevice), "seeds");
  const double mul = ops_per_second<Op::mul>(seeds.data(), kSeeds, out.data(), threads);
  const double sqr = ops_per_second<Op::square>(seeds.data(), kSeeds, out.data(), threads);
  const double sop = ops_per_second<Op::sum_of_products>(seeds.data(), kSeeds, out.data(), threads);
  const double madd = ops_per_second<Op::mixed_add>(seeds.data(), kSeeds, out.data(), threads);
  std::printf("Fp mul %.2f, Fp square %.2f, Fp a*b+c*d %.2f, G1 mixed add %.3f\n", mul * 1e-9, sqr * 1e-9,
              sop * 1e-9, madd * 1e-9);
}

}  // namespace zkpipe::gpu
