#include "bench_arith.hpp"

#include <cstdint>
#include <cstdio>

#include "gpu/cuda_error.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_rates.hpp"
#include "gpu/event_timing.hpp"
#include "gpu/field.cuh"
#include "gpu/rate_seeds.cuh"

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
  const double seconds = median_event_seconds([&] {
    chain_kernel<op><<<threads / kThreads, kThreads>>>(seeds, seed_count, out);
    check_launch("chain_kernel");
  }, 1);
  return double(threads) * kSteps / seconds;
}

// Which units a field product could use: dependent chains of single instructions,
// eight independent chains a thread so that issue, not latency, bounds them.
enum class Pipe { imad_lo, imad_hi, dfma, imad_lo_and_dfma };
constexpr unsigned kChains = 8;

template <Pipe pipe>
__global__ void pipe_kernel(std::uint32_t seed, std::uint32_t* words, double* reals) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  std::uint32_t w[kChains];
  double r[kChains];
#pragma unroll
  for (unsigned c = 0; c < kChains; ++c) {
    w[c] = seed + t * kChains + c;
    r[c] = 1.0 + 1e-9 * (t * kChains + c);
  }
  const std::uint32_t m = seed | 1;
  const double a = 1.0 - 1e-12;
  const double b = 1e-12;
  for (unsigned i = 0; i < kSteps; ++i) {
#pragma unroll
    for (unsigned c = 0; c < kChains; ++c) {
      if constexpr (pipe == Pipe::imad_lo || pipe == Pipe::imad_lo_and_dfma) {
        asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(w[c]) : "r"(m), "r"(c));
      }
      if constexpr (pipe == Pipe::imad_hi) {
        asm volatile("mad.hi.u32 %0, %0, %1, %2;" : "+r"(w[c]) : "r"(m), "r"(c));
      }
      if constexpr (pipe == Pipe::dfma || pipe == Pipe::imad_lo_and_dfma) {
        asm volatile("fma.rn.f64 %0, %0, %1, %2;" : "+d"(r[c]) : "d"(a), "d"(b));
      }
    }
  }
  std::uint32_t wsum = 0;
  double rsum = 0;
#pragma unroll
  for (unsigned c = 0; c < kChains; ++c) {
    wsum += w[c];
    rsum += r[c];
  }
  words[t] = wsum;
  reals[t] = rsum;
}

// Instructions per clock per multiprocessor (each chain step is one instruction of
// each kind the pipe names).
template <Pipe pipe>
double per_clock_per_sm(unsigned threads, int sms, double clock_hz) {
  DeviceBuffer<std::uint32_t> words(threads);
  DeviceBuffer<double> reals(threads);
  const double seconds = median_event_seconds([&] {
    pipe_kernel<pipe><<<threads / kThreads, kThreads>>>(12345, words.data(), reals.data());
    check_launch("pipe_kernel");
  }, 1);
  return double(threads) * kSteps * kChains / seconds / clock_hz / sms;
}

}  // namespace

void bench_arith() {
  std::printf("\n== Device arithmetic throughput (dependent chains, G operations/s) ==\n");
  int sms = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "SM count");
  const unsigned threads = probe_threads(0, kThreads);
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
  // Whether the FP64 units could multiply beside the integer ones: each pipe alone,
  // then integer and FP64 chains interleaved in one thread (about the slower one's
  // time if the two issue side by side, about the sum if they do not).
  int clock_khz = 0;
  check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0), "clock rate");
  const double hz = clock_khz * 1e3;
  const double lo = per_clock_per_sm<Pipe::imad_lo>(threads, sms, hz);
  const double hi = per_clock_per_sm<Pipe::imad_hi>(threads, sms, hz);
  const double fma = per_clock_per_sm<Pipe::dfma>(threads, sms, hz);
  const double both = per_clock_per_sm<Pipe::imad_lo_and_dfma>(threads, sms, hz);
  std::printf("per clock per multiprocessor at %.0f MHz: mad.lo.u32 %.1f, mad.hi.u32 %.1f, fma.rn.f64 %.1f; "
              "mad.lo and fma interleaved %.1f of each (%.2f of the time the two take apart)\n",
              clock_khz * 1e-3, lo, hi, fma, both, (1 / both) / (1 / lo + 1 / fma));
}

}  // namespace zkpipe::gpu
