// The engine options every command that proves takes, under the same names: --pw,
// --gw, --budget, --trace and --verify / --no-verify (the backend's own options are
// backend.hpp's), turned into proving::prove_on_engine's run.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>

#include "groth16/keys.hpp"
#include "groth16/prover.hpp"
#include "memory/buffer_ledger.hpp"
#include "proving/prove_on_engine.hpp"
#include "r1cs/compiled_r1cs.hpp"

namespace zkpipe::cli {

struct EngineOptions {
  std::size_t synthesis_workers = default_synthesis_workers();
  std::size_t workers_per_device = 1;
  std::string budget = "auto";
  std::string trace_path;
  bool verify = true;

  // The core count, between 1 and 64.
  static std::size_t default_synthesis_workers();
};

// Accepts what proving::parse_budget does, with its message for what it refuses.
CLI::Validator budget_validator();

// A --budget option: auto, a byte size or Nx working sets (proving::parse_budget),
// checked when the command line is parsed.
CLI::Option* add_budget_option(CLI::App& cmd, std::string& budget);

void add_engine_options(CLI::App& cmd, EngineOptions& options);

// The run for `partitions` of one request on `key` (and `evaluator`, null for none;
// companion_bytes: what the request keeps beside the key, as Engine::make_resident
// takes it): at most one synthesis worker per partition, the budget resolved with the
// key, evaluator and companion already in memory (auto adds them to what is available,
// since the engine charges them again) and one partition's working set on `backend`.
proving::EngineRun engine_run(const EngineOptions& options, std::size_t partitions, const groth16::ProvingKey& key,
                              const r1cs::CompiledR1cs* evaluator, std::size_t companion_bytes,
                              const groth16::ProverBackend& backend, memory::BufferLedger& ledger);

}  // namespace zkpipe::cli
