// Synthesis of one PoRep-like partition, the two ways (groth16/synthesis.hpp):
//   assignment  ProvingAssignment (a, b, c evaluated while synthesizing)
//   witness     the values-only assignment alone (the pce path's first half)
//   product     the sparse product a, b, c = (A, B, C)·z (its second half)
//   pce         witness + product + densities: what the engine's pce path runs
// plus compile (once per circuit shape). Arguments: preset, threads (1 = one core,
// the CPU-seconds figure; 0 = all cores, the latency figure).
#include <benchmark/benchmark.h>

#include <tbb/global_control.h>

#include <memory>
#include <string>

#include "groth16/synthesis.hpp"
#include "r1cs/porep/porep_circuit.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/sparse_product.hpp"

namespace {

using namespace zkpipe;

const char* const kPresets[] = {"2e16", "2e20"};

struct Workload {
  std::unique_ptr<r1cs::porep::PorepLikeCircuit> circuit;
  std::shared_ptr<const r1cs::CompiledR1cs> compiled;
};

const Workload& workload(std::int64_t preset) {
  static std::unique_ptr<Workload> cached[std::size(kPresets)];
  auto& w = cached[preset];
  if (!w) {
    w = std::make_unique<Workload>();
    w->circuit = std::make_unique<r1cs::porep::PorepLikeCircuit>(r1cs::porep::find_preset(kPresets[preset]), 1, 1);
    w->compiled = std::make_shared<const r1cs::CompiledR1cs>(groth16::compile_circuit(*w->circuit));
  }
  return *w;
}

std::unique_ptr<tbb::global_control> threads(std::int64_t n) {
  if (n == 0) return nullptr;
  return std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(n));
}

void label(benchmark::State& state) {
  const Workload& w = workload(state.range(0));
  state.SetLabel(std::string(kPresets[state.range(0)]) + (state.range(1) == 1 ? " 1 thread" : " all threads") + ", " +
                 std::to_string(w.compiled->num_constraints) + " constraints, nnz " +
                 std::to_string(w.compiled->nonzeros()));
}

void BM_Assignment(benchmark::State& state) {
  const Workload& w = workload(state.range(0));
  const auto control = threads(state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(groth16::synthesize_witness(*w.circuit, 0));
  label(state);
}

void BM_Witness(benchmark::State& state) {
  const Workload& w = workload(state.range(0));
  const auto control = threads(state.range(1));
  for (auto _ : state) {
    benchmark::DoNotOptimize(w.circuit->synthesize_values(0, w.compiled->num_inputs, w.compiled->num_aux));
  }
  label(state);
}

void BM_Product(benchmark::State& state) {
  const Workload& w = workload(state.range(0));
  const auto control = threads(state.range(1));
  const r1cs::WitnessValues z = w.circuit->synthesize_values(0);
  for (auto _ : state) benchmark::DoNotOptimize(r1cs::evaluate_abc(*w.compiled, z.inputs, z.aux));
  label(state);
}

void BM_Pce(benchmark::State& state) {
  const Workload& w = workload(state.range(0));
  const auto control = threads(state.range(1));
  for (auto _ : state) {
    groth16::PartitionWitness witness = groth16::synthesize_witness(*w.circuit, 0, w.compiled);
    groth16::materialize(witness);
    benchmark::DoNotOptimize(witness);
  }
  label(state);
}

void BM_Compile(benchmark::State& state) {
  const Workload& w = workload(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(groth16::compile_circuit(*w.circuit));
  label(state);
}

void presets_and_threads(benchmark::internal::Benchmark* b) {
  for (std::int64_t p = 0; p < static_cast<std::int64_t>(std::size(kPresets)); ++p) {
    for (std::int64_t t : {1, 0}) b->Args({p, t});
  }
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK(BM_Assignment)->Name("synthesis/assignment")->Apply(presets_and_threads);
BENCHMARK(BM_Witness)->Name("synthesis/witness")->Apply(presets_and_threads);
BENCHMARK(BM_Product)->Name("synthesis/product")->Apply(presets_and_threads);
BENCHMARK(BM_Pce)->Name("synthesis/pce")->Apply(presets_and_threads);
BENCHMARK(BM_Compile)->Name("synthesis/compile")->Args({0, 1})->Args({1, 1})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
