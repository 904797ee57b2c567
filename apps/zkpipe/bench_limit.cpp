#include "bench_limit.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#ifdef ZKPIPE_WITH_CUDA
#include "ec/fixed_base.hpp"
#include "ec/generators.hpp"
#include "gpu/cuda_error.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_memory.hpp"
#include "gpu/device_rates.hpp"
#include "gpu/event_timing.hpp"
#include "gpu/fixed_base.hpp"
#include "gpu/kernel_bounds.hpp"
#include "gpu/msm.hpp"
#include "gpu/ntt.hpp"
#include "gpu/staging.hpp"
#include "poly/evaluation_domain.hpp"
#endif

namespace zkpipe::cli {

namespace {

struct LimitOptions {
  unsigned log_size = 27;
  int device = 0;
};

#ifdef ZKPIPE_WITH_CUDA

// Distinct values drawn on the host, repeated on the device up to a kernel's size:
// neither the NTT's nor the MSM's cost depends on its inputs being distinct.
constexpr std::size_t kDistinct = std::size_t{1} << 16;

// `count` copies of the first `distinct` elements of `data`, doubling on the device.
template <class T>
void repeat_on_device(T* data, std::size_t distinct, std::size_t count) {
  for (std::size_t filled = distinct; filled < count; filled *= 2) {
    const std::size_t len = std::min(filled, count - filled);
    gpu::check(cudaMemcpy(data + filled, data, len * sizeof(T), cudaMemcpyDeviceToDevice), "repeat on the device");
  }
}

std::vector<ff::Fr> random_scalars(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ff::Fr> out(n);
  for (ff::Fr& s : out) s = ff::Fr::random(rng);
  return out;
}

// A 32 GiB PoRep witness's mix (per mille): 512 zeros, 475 ones, the rest random.
std::vector<ff::Fr> witness_scalars(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ff::Fr> out(n);
  for (ff::Fr& s : out) {
    const auto roll = rng() % 1000;
    s = roll < 512 ? ff::Fr::zero() : roll < 987 ? ff::Fr::one() : ff::Fr::random(rng);
  }
  return out;
}

gpu::DeviceBuffer<ff::Fr> repeated_on_device(const std::vector<ff::Fr>& distinct, std::size_t n) {
  gpu::DeviceBuffer<ff::Fr> out(n);
  gpu::check(cudaMemcpy(out.data(), distinct.data(), distinct.size() * sizeof(ff::Fr), cudaMemcpyHostToDevice),
             "upload scalars");
  repeat_on_device(out.data(), distinct.size(), n);
  return out;
}

gpu::DeviceBuffer<ff::Fr> repeated_scalars(std::size_t n, std::uint64_t seed) {
  return repeated_on_device(random_scalars(std::min(n, kDistinct), seed), n);
}

// Random multiples of G1's generator, made on the device as setup makes a key's.
gpu::DeviceG1Bases repeated_points(std::size_t n, gpu::PinnedStaging& staging) {
  const ec::FixedBaseTable<ec::G1Curve> table(ec::kG1Generator);
  const gpu::DeviceFixedBase<ec::G1Curve> fixed_base(table, nullptr);
  const gpu::DeviceG1Bases distinct = fixed_base.mul(random_scalars(std::min(n, kDistinct), 2), staging, nullptr);
  gpu::DeviceG1Bases out(n);
  gpu::check(cudaMemcpy(out.data(), distinct.data(), distinct.bytes(), cudaMemcpyDeviceToDevice), "copy points");
  repeat_on_device(out.data(), distinct.size(), n);
  return out;
}

void print_row(const std::string& kernel, double ms, const gpu::KernelWork& work, const gpu::DeviceRates& rates) {
  const gpu::KernelBound b = gpu::bound(work, rates);
  std::printf("%-36s %10.2f %14.2f %15.2f %9.2fx\n", kernel.c_str(), ms, b.memory_seconds * 1e3,
              b.compute_seconds * 1e3, ms / (b.seconds() * 1e3));
  std::fflush(stdout);
}

void run_limit(const LimitOptions& options) {
  gpu::require_device(options.device);
  gpu::check(cudaSetDevice(options.device), "cudaSetDevice");
  std::printf("zkpipe bench limit: device %d, %s\n", options.device, gpu::device_name(options.device).c_str());
  const gpu::DeviceRates rates = gpu::measure_device_rates(options.device);
  std::printf("measured: device memory %.0f GB/s (a copy's reads and writes), Fr products %.2f G/s, "
              "G1 mixed additions %.3f G/s\n",
              rates.bytes_per_second * 1e-9, rates.products_per_second * 1e-9, rates.additions_per_second * 1e-9);
  std::printf("%-36s %10s %14s %15s %10s\n", "kernel", "ms", "memory bound", "compute bound", "x bound");
  const unsigned lg = options.log_size;
  {
    const std::size_t n = std::size_t{1} << lg;
    const gpu::DeviceNtt ntt{poly::EvaluationDomain(n)};
    gpu::DeviceBuffer<ff::Fr> a = repeated_scalars(n, 3);
    gpu::DeviceBuffer<ff::Fr> b = repeated_scalars(n, 4);
    gpu::DeviceBuffer<ff::Fr> c = repeated_scalars(n, 5);
    const double ms =
        1e3 * gpu::median_event_seconds([&] { ntt.h_scalars(a.data(), b.data(), c.data(), true, nullptr); }, 3);
    print_row("h step 2^" + std::to_string(lg) + " (7 NTTs, quotient)", ms, gpu::h_step_work(lg, ntt.tile_log()),
              rates);
  }
  {
    // The prover sums a 2^27 H query as two passes of 2^26 (CudaProverOptions).
    const unsigned msm_log = std::min(lg, 26u);
    const std::size_t n = std::size_t{1} << msm_log;
    gpu::PinnedStaging staging;
    const gpu::DeviceG1Bases bases = repeated_points(n, staging);
    const gpu::DeviceBuffer<ff::Fr> scalars = repeated_scalars(n, 6);
    gpu::DeviceMsm msm;
    const double ms = 1e3 * gpu::median_event_seconds([&] { msm.sum(bases, scalars.data(), n, nullptr); }, 3);
    msm.set_phase_timing(true);
    msm.sum(bases, scalars.data(), n, nullptr);
    const unsigned c = gpu::DeviceMsm::default_window_bits<ec::G1Curve>(n);
    const gpu::KernelWork accumulation = gpu::msm_accumulate_work(n, c);
    const std::string size = "G1 MSM 2^" + std::to_string(msm_log);
    print_row(size + ", accumulation (c=" + std::to_string(c) + ")", msm.last_phases().accumulate, accumulation, rates);
    // The whole sum (selection, digits, sort, reduction too) against its accumulation's bound.
    print_row(size + ", whole sum", ms, accumulation, rates);

    // The L and A queries' kind of sum: the same points, a witness's scalars.
    const std::vector<ff::Fr> distinct = witness_scalars(std::min(n, kDistinct), 7);
    const gpu::DeviceBuffer<ff::Fr> witness = repeated_on_device(distinct, n);
    const std::size_t copies = n / distinct.size();
    const auto ones = static_cast<std::size_t>(std::count(distinct.begin(), distinct.end(), ff::Fr::one())) * copies;
    const auto zeros = static_cast<std::size_t>(std::count(distinct.begin(), distinct.end(), ff::Fr::zero())) * copies;
    const std::size_t general = n - ones - zeros;
    const double witness_ms =
        1e3 * gpu::median_event_seconds([&] { msm.sum(bases, witness.data(), n, nullptr); }, 3);
    print_row("G1 witness sum 2^" + std::to_string(msm_log) + " (51.2 % zeros, 47.5 % ones)", witness_ms,
              gpu::msm_witness_work(n, ones, general, gpu::DeviceMsm::default_window_bits<ec::G1Curve>(general)),
              rates);
  }
}

#else

void run_limit(const LimitOptions&) {
  throw std::runtime_error("zkpipe bench limit measures a GPU: this build has no CUDA backend (ZKPIPE_CUDA=OFF)");
}

#endif

}  // namespace

void register_bench_limit(CLI::App& bench) {
  auto options = std::make_shared<LimitOptions>();
  CLI::App* l = bench.add_subcommand(
      "limit", "Time the h step and a G1 MSM on a GPU beside the least their work takes at its measured rates");
  l->add_option("--log-size", options->log_size, "The h step over 2^N elements; the MSM over 2^min(N, 26) terms")
      ->capture_default_str()
      ->check(CLI::Range(10u, 27u));
  l->add_option("--device", options->device, "CUDA device ordinal")->capture_default_str()->check(CLI::NonNegativeNumber);
  l->callback([options] { run_limit(*options); });
}

}  // namespace zkpipe::cli
