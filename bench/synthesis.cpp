// Synthesis of one PoRep-like partition, the two ways (groth16/synthesis.hpp):
//   assignment  ProvingAssignment (a, b, c evaluated while synthesizing)
//   witness     the values-only assignment alone (the pce path's first half)
//   product     the sparse product a, b, c = (A, B, C)·z (its second half)
//   pce         witness + product + densities: what the engine's pce path runs
// plus compile (once per circuit shape), and a 32 GiB Window PoSt partition's values
// for ZKPIPE_BENCH_POST_SECTORS sectors (default 32). Arguments: preset, threads (1 = one core,
// the CPU-seconds figure; 0 = all cores, the latency figure). The presets are
// ZKPIPE_BENCH_PRESETS (comma-separated; default 2e16,2e20): 2e24 and 2e27 need a
// machine with the memory for them (the assignment path holds a, b, c in full).
#include <benchmark/benchmark.h>

#include <tbb/global_control.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "circuits/filecoin/post/post_proof.hpp"
#include "circuits/filecoin/synthetic/synthetic_post.hpp"
#include "groth16/synthesis.hpp"
#include "memory/allocator.hpp"
#include "circuits/porep_like/porep_circuit.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/sparse_product.hpp"

namespace {

using namespace zkpipe;

const std::vector<std::string>& presets() {
  static const std::vector<std::string> names = [] {
    const char* env = std::getenv("ZKPIPE_BENCH_PRESETS");
    std::string list = env != nullptr ? env : "2e16,2e20";
    std::vector<std::string> out;
    for (std::size_t at = 0; at <= list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      if (comma > at) out.push_back(list.substr(at, comma - at));
      at = comma + 1;
    }
    return out;
  }();
  return names;
}

struct Workload {
  std::unique_ptr<porep_like::PorepLikeCircuit> circuit;
  std::shared_ptr<const r1cs::CompiledR1cs> compiled;
};

// One preset's circuit and evaluator at a time: at 2e27 the evaluator alone is ~9 GiB.
const Workload& workload(std::int64_t preset) {
  static std::int64_t cached_preset = -1;
  static std::unique_ptr<Workload> w;
  if (cached_preset != preset) {
    w.reset();
    w = std::make_unique<Workload>();
    cached_preset = preset;
    w->circuit = std::make_unique<porep_like::PorepLikeCircuit>(
        porep_like::find_preset(presets()[static_cast<std::size_t>(preset)]), 1, 1);
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
  state.SetLabel(std::to_string(w.compiled->num_constraints) + " constraints, nnz " +
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

// A 32 GiB Window PoSt partition's values with `sectors` synthetic sectors (a full
// partition has 2349; its time is about 2349/sectors times this).
void BM_WindowPostWitness(benchmark::State& state) {
  filecoin::post::PostProof proof =
      filecoin::post::post_proof(filecoin::post::PostKind::kWindow, std::uint64_t{32} << 30);
  proof.sector_count = static_cast<std::size_t>(state.range(0));
  const filecoin::post::FallbackPostCircuit circuit = filecoin::synthetic::synthetic_post(proof, 1, 1);
  // The engine's pce path passes the evaluator's sizes as hints.
  const r1cs::WitnessValues sizes = circuit.synthesize_values(0);
  const auto control = threads(state.range(1));
  for (auto _ : state) {
    benchmark::DoNotOptimize(circuit.synthesize_values(0, sizes.inputs.size(), sizes.aux.size()));
  }
  state.SetLabel(std::to_string(proof.sector_count) + " sectors of 32 GiB, " +
                 std::to_string(proof.challenge_count) + " challenges each");
}

void BM_Compile(benchmark::State& state) {
  const Workload& w = workload(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(groth16::compile_circuit(*w.circuit));
  label(state);
}

}  // namespace

// Registered in main: the preset list comes from the environment. Grouped by preset so
// that each preset's workload is built once.
int main(int argc, char** argv) {
  for (std::int64_t p = 0; p < static_cast<std::int64_t>(presets().size()); ++p) {
    const std::string name = presets()[static_cast<std::size_t>(p)];
    for (std::int64_t t : {1, 0}) {
      const std::string suffix = name + (t == 1 ? "/1thread" : "/allthreads");
      using Run = void (*)(benchmark::State&);
      const std::pair<const char*, Run> runs[] = {
          {"assignment", BM_Assignment}, {"witness", BM_Witness}, {"product", BM_Product}, {"pce", BM_Pce}};
      for (const auto& [what, run] : runs) {
        benchmark::RegisterBenchmark(("synthesis/" + std::string(what) + "/" + suffix).c_str(), run)
            ->Args({p, t})
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
    benchmark::RegisterBenchmark(("synthesis/compile/" + name).c_str(), BM_Compile)
        ->Args({p, 1})
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  }
  const char* sectors = std::getenv("ZKPIPE_BENCH_POST_SECTORS");
  const std::int64_t post_sectors = sectors != nullptr ? std::atoll(sectors) : 32;
  for (std::int64_t t : {1, 0}) {
    benchmark::RegisterBenchmark(
        ("synthesis/window-post-witness/32GiB/" + std::string(t == 1 ? "1thread" : "allthreads")).c_str(),
        BM_WindowPostWitness)
        ->Args({post_sectors, t})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  // As the zkpipe CLI and daemon run: every block of 1 MiB or more its own mapping.
  memory::tune_allocator();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
