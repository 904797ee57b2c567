// CPU MSM benchmarks. Arguments: log2 of the size and the thread cap (0 = all threads,
// 1 = one thread). Run one family with e.g. --benchmark_filter=G1Msm/16/1.
#include "ec/msm/msm.hpp"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "ec/msm/precomputed.hpp"
#include "ec/msm/testing.hpp"

namespace {

using zkpipe::ec::Affine;
using zkpipe::ec::G1Curve;
using zkpipe::ec::G2Curve;
using zkpipe::ec::MsmBuckets;
using zkpipe::ec::MsmOptions;
using zkpipe::ec::PrecomputedBases;
using zkpipe::ff::Fr;
namespace msm_testing = zkpipe::ec::msm_testing;

constexpr std::size_t kMaxLogG1 = 20;
constexpr std::size_t kMaxLogG2 = 16;

// Inputs are made once, for the largest size, and benchmarks use prefixes of them.
template <class Curve>
const std::vector<Affine<Curve>>& bases(std::size_t log_max) {
  static const auto points = msm_testing::random_points<Curve>(std::size_t{1} << log_max, 1);
  return points;
}

const std::vector<Fr>& random_scalars() {
  static const auto scalars = msm_testing::random_scalars(std::size_t{1} << kMaxLogG1, 2);
  return scalars;
}

// 90% zeros and ones (45% each), like a witness.
const std::vector<Fr>& witness_scalars() {
  static const auto scalars =
      msm_testing::witness_like_scalars(std::size_t{1} << kMaxLogG1, 45, 45, 3);
  return scalars;
}

template <class Curve>
void run(benchmark::State& state, std::size_t log_max, const std::vector<Fr>& all_scalars,
         unsigned window_bits = 0, MsmBuckets buckets = MsmBuckets::automatic) {
  const std::size_t n = std::size_t{1} << state.range(0);
  const MsmOptions options{.max_threads = static_cast<std::size_t>(state.range(1)),
                           .window_bits = window_bits,
                           .buckets = buckets};
  const std::span<const Affine<Curve>> b(bases<Curve>(log_max).data(), n);
  const std::span<const Fr> s(all_scalars.data(), n);
  for (auto _ : state) benchmark::DoNotOptimize(zkpipe::ec::msm<Curve>(b, s, options));
  state.counters["points"] = static_cast<double>(n);
}

void G1Msm(benchmark::State& state) { run<G1Curve>(state, kMaxLogG1, random_scalars()); }
void G2Msm(benchmark::State& state) { run<G2Curve>(state, kMaxLogG2, random_scalars()); }
void G1MsmWitness(benchmark::State& state) { run<G1Curve>(state, kMaxLogG1, witness_scalars()); }

// Tuning: a fixed window size (third argument) and bucket kind (fourth: 0 = XYZZ,
// 1 = batch-affine) instead of the automatic choices.
void G1MsmWindow(benchmark::State& state) {
  run<G1Curve>(state, kMaxLogG1, random_scalars(), static_cast<unsigned>(state.range(2)),
               state.range(3) == 0 ? MsmBuckets::xyzz : MsmBuckets::batch_affine);
}
void G2MsmWindow(benchmark::State& state) {
  run<G2Curve>(state, kMaxLogG2, random_scalars(), static_cast<unsigned>(state.range(2)),
               state.range(3) == 0 ? MsmBuckets::xyzz : MsmBuckets::batch_affine);
}

// Precomputed bases (fourth argument: copies per base, 0 = one per window). The
// table is built outside the timed loop; its size is reported.
void G1MsmPrecomputed(benchmark::State& state) {
  const std::size_t n = std::size_t{1} << state.range(0);
  const MsmOptions options{.max_threads = static_cast<std::size_t>(state.range(1))};
  const PrecomputedBases<G1Curve> table(
      std::span<const Affine<G1Curve>>(bases<G1Curve>(kMaxLogG1).data(), n),
      static_cast<unsigned>(state.range(2)), options);
  const std::span<const Fr> s(random_scalars().data(), n);
  for (auto _ : state) benchmark::DoNotOptimize(zkpipe::ec::msm(table, s, options));
  state.counters["window_bits"] = table.layout().bits();
  state.counters["copies"] = table.copies();
  state.counters["table_MiB"] = static_cast<double>(table.memory_bytes()) / (1 << 20);
}

void sizes(benchmark::internal::Benchmark* b, std::initializer_list<int> logs) {
  for (int threads : {1, 0}) {
    for (int log_n : logs) b->Args({log_n, threads});
  }
  b->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
}

BENCHMARK(G1Msm)->Apply([](auto* b) { sizes(b, {12, 14, 16, 18, 20}); });
BENCHMARK(G2Msm)->Apply([](auto* b) { sizes(b, {12, 14, 16}); });
BENCHMARK(G1MsmWitness)->Apply([](auto* b) { sizes(b, {20}); });
BENCHMARK(G1MsmWindow)
    ->ArgsProduct({{12, 14, 16, 17, 20}, {1, 0}, {8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(G2MsmWindow)
    ->ArgsProduct({{12, 14, 16}, {1, 0}, {8, 9, 10, 11, 12, 13, 14}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(G1MsmPrecomputed)
    ->ArgsProduct({{12, 16}, {1, 0}, {1, 4, 0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
