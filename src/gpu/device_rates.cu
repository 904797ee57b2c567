#include "gpu/device_rates.hpp"

#include <cstddef>

#include "gpu/cuda_error.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/event_timing.hpp"
#include "gpu/field.cuh"
#include "gpu/g1.cuh"
#include "gpu/rate_seeds.cuh"

namespace zkpipe::gpu {

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kSteps = 256;
constexpr unsigned kSeeds = 1024;

// Each thread runs a dependent chain of kSteps operations from its own start values;
// the result is stored so the chain cannot be optimised away.
__global__ void product_chain_kernel(const Fr* seeds, Fr* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  Fr x = seeds[t % kSeeds];
  const Fr y = seeds[(t + 1) % kSeeds];
  for (unsigned i = 0; i < kSteps; ++i) x = x * y;
  out[t] = x;
}

__global__ void addition_chain_kernel(const Fp* seeds, Fp* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  G1Xyzz acc = G1Xyzz::from_affine({seeds[t % kSeeds], seeds[(t + 1) % kSeeds]});
  const G1Affine q{seeds[(t + 2) % kSeeds], seeds[(t + 3) % kSeeds]};
  for (unsigned i = 0; i < kSteps; ++i) acc = acc.add_affine(q);
  out[t] = acc.X + acc.Y + acc.ZZ + acc.ZZZ;
}

}  // namespace

unsigned probe_threads(int device, unsigned block) {
  int sms = 0;
  int per_sm = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "SM count");
  check(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, device), "threads per SM");
  return static_cast<unsigned>(sms) * static_cast<unsigned>(per_sm) * 4 / block * block;
}

DeviceRates measure_device_rates(int device) {
  check(cudaSetDevice(device), "cudaSetDevice");
  DeviceRates rates;
  {
    constexpr std::size_t kCopyBytes = std::size_t{1} << 30;
    DeviceBuffer<std::byte> from(kCopyBytes);
    DeviceBuffer<std::byte> to(kCopyBytes);
    check(cudaMemset(from.data(), 1, kCopyBytes), "fill");
    const double s = median_event_seconds([&] {
      check(cudaMemcpyAsync(to.data(), from.data(), kCopyBytes, cudaMemcpyDeviceToDevice), "copy");
    }, 1);
    rates.bytes_per_second = 2.0 * kCopyBytes / s;
  }
  const unsigned threads = probe_threads(device, kThreads);
  const double operations = double(threads) * kSteps;
  {
    const DeviceBuffer<Fr> seeds = rate_seeds<Fr>(kSeeds);
    DeviceBuffer<Fr> out(threads);
    rates.products_per_second = operations / median_event_seconds([&] {
      product_chain_kernel<<<threads / kThreads, kThreads>>>(seeds.data(), out.data());
      check_launch("product_chain_kernel");
    }, 1);
  }
  const DeviceBuffer<Fp> seeds = rate_seeds<Fp>(kSeeds);
  DeviceBuffer<Fp> out(threads);
  rates.additions_per_second = operations / median_event_seconds([&] {
    addition_chain_kernel<<<threads / kThreads, kThreads>>>(seeds.data(), out.data());
    check_launch("addition_chain_kernel");
  }, 1);
  return rates;
}

}  // namespace zkpipe::gpu
