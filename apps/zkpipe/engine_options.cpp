#include "engine_options.hpp"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "engine/engine.hpp"
#include "file_args.hpp"
#include "proving/engine_budget.hpp"
#include "proving/proof_request.hpp"

namespace zkpipe::cli {

std::size_t EngineOptions::default_synthesis_workers() {
  return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
}

CLI::Validator budget_validator() {
  return CLI::Validator(
      [](const std::string& text) -> std::string {
        try {
          proving::parse_budget(text);
        } catch (const std::invalid_argument& e) {
          return e.what();
        }
        return {};
      },
      "BUDGET");
}

CLI::Option* add_budget_option(CLI::App& cmd, std::string& budget) {
  return cmd
      .add_option("--budget", budget,
                  "Memory budget for the key and the partitions in flight: auto (what the process may take), bytes "
                  "(e.g. 8GiB; 8G is GiB, 8GB 10^9), or Nx (the key + N partition working sets)")
      ->capture_default_str()
      ->check(budget_validator());
}

void add_engine_options(CLI::App& cmd, EngineOptions& o) {
  cmd.add_option("--pw", o.synthesis_workers, "Partitions in synthesis at once (default: the core count)")
      ->check(CLI::Range(std::size_t{1}, engine::kMaxWorkers));
  cmd.add_option("--gw", o.workers_per_device, "Device workers per device")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, engine::kMaxWorkers));
  add_budget_option(cmd, o.budget);
  cmd.add_option("--trace", o.trace_path, "Write a Chrome trace-event JSON file (open in ui.perfetto.dev)")
      ->check(output_file());
  cmd.add_flag("--verify,!--no-verify", o.verify, "Verify every proof before writing it (the default)");
}

proving::EngineRun engine_run(const EngineOptions& o, std::size_t partitions, const groth16::ProvingKey& key,
                              const r1cs::CompiledR1cs* evaluator, std::size_t companion_bytes,
                              const groth16::ProverBackend& backend, memory::BufferLedger& ledger) {
  const std::size_t loaded =
      engine::parameter_bytes(key) + (evaluator ? engine::evaluator_bytes(*evaluator) : 0) + companion_bytes;
  const std::size_t working_set = proving::partition_footprint(key, evaluator != nullptr, backend).total();
  proving::EngineRun run;
  run.engine.synthesis_workers = std::min(o.synthesis_workers, std::max<std::size_t>(partitions, 1));
  run.engine.workers_per_device = o.workers_per_device;
  run.engine.ledger = &ledger;
  run.engine.budget_bytes =
      proving::resolve_budget(proving::parse_budget(o.budget), loaded, working_set);
  run.verify = o.verify;
  run.trace = !o.trace_path.empty();
  return run;
}

}  // namespace zkpipe::cli
