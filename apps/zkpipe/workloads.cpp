#include "workloads.hpp"

#include <stdexcept>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>

#include "groth16/evaluator_file.hpp"
#include "groth16/synthesis.hpp"
#include "progress.hpp"
#include "circuits/porep_like/porep_circuit.hpp"

namespace zkpipe::cli {

void add_circuit_options(CLI::App& cmd, WorkloadSpec& spec) {
  cmd.add_option("--circuit", spec.circuit, "Circuit family")->capture_default_str();
  std::string presets;
  for (const auto& name : r1cs::porep::preset_names()) presets += (presets.empty() ? "" : ", ") + name;
  cmd.add_option("--preset", spec.preset, "Circuit size preset (" + presets + ")")->capture_default_str();
}

void add_instance_options(CLI::App& cmd, WorkloadSpec& spec) {
  cmd.add_option("--seed", spec.seed, "Seed the witnesses and public inputs derive from")->capture_default_str();
  cmd.add_option("--partitions", spec.partitions, "Partitions per proof")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1024}));
}

std::unique_ptr<r1cs::PartitionedCircuit> make_circuit(const WorkloadSpec& spec) {
  if (spec.circuit != "porep-like") {
    throw std::invalid_argument("unknown circuit '" + spec.circuit + "' (known: porep-like)");
  }
  return std::make_unique<r1cs::porep::PorepLikeCircuit>(r1cs::porep::find_preset(spec.preset), spec.seed,
                                                         spec.partitions);
}

void add_synthesis_option(CLI::App& cmd, std::string& synthesis) {
  cmd.add_option("--synthesis", synthesis,
                 "Witness path: pce (circuit compiled once, then values-only synthesis on all cores and a sparse "
                 "product) or assignment (ProvingAssignment, the reference)")
      ->capture_default_str()
      ->check(CLI::IsMember({"pce", "assignment"}));
}

std::string evaluator_path(const std::string& key_path) {
  return std::filesystem::path(key_path).replace_extension(".zkpev").string();
}

std::shared_ptr<const r1cs::CompiledR1cs> evaluator_for(const WorkloadSpec& spec, const std::string& synthesis,
                                                        const groth16::ProvingKey& key, const std::string& key_path,
                                                        bool quiet) {
  if (synthesis != "pce") return nullptr;
  WorkloadSpec one = spec;
  one.partitions = 1;
  const auto circuit = make_circuit(one);
  const std::string path = evaluator_path(key_path);
  const groth16::EvaluatorExpectation expected{circuit->name(), groth16::key_fingerprint(key)};
  auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return format_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count());
  };
  auto t0 = std::chrono::steady_clock::now();
  if (std::filesystem::exists(path)) {
    try {
      auto evaluator = std::make_shared<const r1cs::CompiledR1cs>(groth16::load_evaluator_file(path, expected));
      if (!quiet) {
        std::cerr << "evaluator " << path << ": " << evaluator->num_constraints << " constraints, "
                  << evaluator->nonzeros() << " non-zero entries, "
                  << format_bytes(static_cast<double>(evaluator->matrix_bytes())) << ", loaded in " << seconds_since(t0)
                  << "\n";
      }
      return evaluator;
    } catch (const groth16::EvaluatorFileError& e) {
      std::cerr << "zkpipe: warning: not using the cached evaluator: " << e.what() << "; rebuilding it\n";
    }
  }
  t0 = std::chrono::steady_clock::now();
  std::shared_ptr<const r1cs::CompiledR1cs> evaluator;
  {
    // The key's domain bounds the constraint count: the bar ends at or below 100 %.
    ProgressBar bar(!quiet && isatty(STDERR_FILENO));
    evaluator = std::make_shared<const r1cs::CompiledR1cs>(groth16::compile_circuit(
        *circuit, [&](std::size_t done) { bar.update("compiling " + circuit->name(), done, key.domain_size()); }));
  }
  const double compile_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  try {
    groth16::write_evaluator_file(path, *evaluator, circuit->name(), expected.key_fingerprint);
  } catch (const std::exception& e) {
    std::cerr << "zkpipe: warning: the evaluator could not be cached (" << e.what() << "); it is used from memory\n";
  }
  if (!quiet) {
    std::cerr << "compiled " << circuit->name() << " for the pce path in " << format_seconds(compile_seconds) << ": "
              << evaluator->num_constraints << " constraints, " << evaluator->nonzeros() << " non-zero entries, "
              << evaluator->coefficient_table.size() << " wide coefficients, "
              << format_bytes(static_cast<double>(evaluator->matrix_bytes())) << "; cached in " << path << "\n";
  }
  return evaluator;
}

groth16::PartitionWitness synthesize_partition(const r1cs::PartitionedCircuit& circuit, std::size_t partition,
                                               const std::shared_ptr<const r1cs::CompiledR1cs>& evaluator) {
  if (evaluator != nullptr) return groth16::synthesize_witness(circuit, partition, evaluator);
  return groth16::synthesize_witness(circuit, partition);
}

}  // namespace zkpipe::cli
