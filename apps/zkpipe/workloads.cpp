#include "workloads.hpp"

#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "circuits/filecoin/core/sector_shape.hpp"
#include "progress.hpp"
#include "proving/evaluator_cache.hpp"

namespace zkpipe::cli {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

void add_circuit_options(CLI::App& cmd, WorkloadSpec& spec) {
  cmd.add_option("--circuit", spec.circuit, "Circuit family (" + joined(proving::circuit_names()) + ")")
      ->capture_default_str();
  cmd.add_option("--preset", spec.preset,
                 "Size preset: porep-like " + joined(proving::preset_names("porep-like")) +
                     "; the filecoin-* circuits a sector size, " + joined(proving::preset_names("filecoin-porep")))
      ->capture_default_str();
  cmd.add_option_function<std::string>(
      "--sector-size",
      [&spec](const std::string& text) {
        try {
          spec.preset = filecoin::core::sector_size_name(filecoin::core::parse_sector_size(text));
        } catch (const std::invalid_argument& e) {
          throw CLI::ValidationError("--sector-size", e.what());
        }
      },
      "Sector size of a filecoin-* circuit, 2KiB … 64GiB in any case or bytes (the same as --preset); the PoSt "
      "circuits' partitions are synthetic sectors (window: full partitions, winning: one)");
}

void add_instance_options(CLI::App& cmd, WorkloadSpec& spec) {
  cmd.add_option("--seed", spec.seed, "Seed the witnesses and public inputs derive from")->capture_default_str();
  cmd.add_option("--partitions", spec.partitions, "Partitions per proof")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1024}));
}

void add_synthesis_option(CLI::App& cmd, std::string& synthesis) {
  cmd.add_option("--synthesis", synthesis,
                 "Witness path: pce (circuit compiled once, then values-only synthesis on all cores and a sparse "
                 "product) or assignment (ProvingAssignment, the reference)")
      ->capture_default_str()
      ->check(CLI::IsMember({"pce", "assignment"}));
}

std::shared_ptr<const r1cs::CompiledR1cs> evaluator_for(const WorkloadSpec& spec, const std::string& synthesis,
                                                        const groth16::ProvingKey& key, const std::string& key_path,
                                                        bool quiet) {
  if (synthesis != "pce") return nullptr;
  WorkloadSpec one = spec;
  one.partitions = 1;
  return evaluator_for(*make_circuit(one), key, key_path, quiet);
}

std::shared_ptr<const r1cs::CompiledR1cs> evaluator_for(const r1cs::PartitionedCircuit& circuit,
                                                        const groth16::ProvingKey& key, const std::string& key_path,
                                                        bool quiet) {
  proving::CachedEvaluator cached;
  {
    // The key's domain bounds the constraint count: the bar ends at or below 100 %.
    ProgressBar bar(!quiet && isatty(STDERR_FILENO));
    cached = proving::load_or_compile_evaluator(key_path, key, circuit, [&](std::size_t done) {
      bar.update("compiling " + circuit.name(), done, key.domain_size());
    });
  }
  if (!cached.passed_over.empty()) {
    std::cerr << "zkpipe: warning: not using the cached evaluator: " << cached.passed_over << "; rebuilding it\n";
  }
  if (!cached.not_cached.empty()) {
    std::cerr << "zkpipe: warning: the evaluator could not be cached (" << cached.not_cached
              << "); it is used from memory\n";
  }
  const r1cs::CompiledR1cs& evaluator = *cached.evaluator;
  if (!quiet && cached.loaded()) {
    std::cerr << "evaluator " << cached.path.string() << ": " << evaluator.num_constraints << " constraints, "
              << evaluator.nonzeros() << " non-zero entries, "
              << format_bytes(static_cast<double>(evaluator.matrix_bytes())) << ", loaded in "
              << format_seconds(cached.seconds) << "\n";
  } else if (!quiet) {
    std::cerr << "compiled " << circuit.name() << " for the pce path in " << format_seconds(cached.seconds) << ": "
              << evaluator.num_constraints << " constraints, " << evaluator.nonzeros() << " non-zero entries, "
              << evaluator.coefficient_table.size() << " wide coefficients, "
              << format_bytes(static_cast<double>(evaluator.matrix_bytes()))
              << (cached.not_cached.empty() ? "; cached in " + cached.path.string() : std::string()) << "\n";
  }
  return cached.evaluator;
}

}  // namespace zkpipe::cli
