#include "workloads.hpp"

#include <stdexcept>

#include "r1cs/porep/porep_circuit.hpp"

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

}  // namespace zkpipe::cli
