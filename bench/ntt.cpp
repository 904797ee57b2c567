// NTT throughput over Fr with all available threads. The transform runs again
// and again on the same buffer (its values do not matter to the timing).
// "Time" is wall time; "CPU" is the CPU time of all threads together, which
// shows the parallel efficiency (and the work done when the machine is shared).
//
//   bench_ntt --benchmark_filter=Forward
#include <cstddef>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "poly/ntt.hpp"

namespace {

using zkpipe::ff::Fr;
using zkpipe::poly::EvaluationDomain;
using zkpipe::poly::NttOrder;

using Transform = void (*)(const EvaluationDomain&, std::span<Fr>, NttOrder);

std::vector<Fr> random_values(std::size_t n) {
  std::mt19937_64 rng(42);
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

void run(benchmark::State& state, Transform transform, NttOrder order) {
  const EvaluationDomain domain(std::size_t{1} << state.range(0));
  std::vector<Fr> values = random_values(domain.size());
  for (auto _ : state) {
    transform(domain, values, order);
    benchmark::ClobberMemory();
  }
  state.counters["elements/s"] = benchmark::Counter(
      static_cast<double>(domain.size()) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
}

void BM_Forward(benchmark::State& state) {
  run(state, zkpipe::poly::forward_ntt, NttOrder::natural_to_bit_reversed);
}
void BM_ForwardNaturalOrder(benchmark::State& state) {
  run(state, zkpipe::poly::forward_ntt, NttOrder::natural_to_natural);
}
void BM_Inverse(benchmark::State& state) {
  run(state, zkpipe::poly::inverse_ntt, NttOrder::natural_to_bit_reversed);
}
void BM_InverseFromBitReversed(benchmark::State& state) {
  run(state, zkpipe::poly::inverse_ntt, NttOrder::bit_reversed_to_natural);
}
void BM_CosetForward(benchmark::State& state) {
  run(state, zkpipe::poly::coset_forward_ntt, NttOrder::bit_reversed_to_natural);
}

}  // namespace

BENCHMARK(BM_Forward)->DenseRange(16, 24, 2)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_ForwardNaturalOrder)->Arg(20)->Arg(24)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_Inverse)->Arg(20)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_InverseFromBitReversed)->Arg(20)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_CosetForward)->Arg(20)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK_MAIN();
