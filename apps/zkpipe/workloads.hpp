// Which circuit a command works on: the circuit family, its preset, the seed its
// witnesses and public inputs derive from, and the number of partitions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "groth16/keys.hpp"
#include "groth16/witness.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/partitioned_circuit.hpp"

namespace zkpipe::cli {

struct WorkloadSpec {
  std::string circuit = "porep-like";
  std::string preset = "tiny";
  std::uint64_t seed = 1;
  std::size_t partitions = 1;
};

void add_circuit_options(CLI::App& cmd, WorkloadSpec& spec);
void add_instance_options(CLI::App& cmd, WorkloadSpec& spec);

// Throws std::invalid_argument naming the valid circuits / presets.
std::unique_ptr<r1cs::PartitionedCircuit> make_circuit(const WorkloadSpec& spec);

// --synthesis assignment|pce: how each partition's witness is built (groth16/synthesis.hpp).
void add_synthesis_option(CLI::App& cmd, std::string& synthesis);

// The pre-compiled evaluator of the spec's circuit shape for --synthesis pce (null for
// assignment). Cached beside the key (evaluator_path): loaded when the file was built
// for this circuit and this key, else compiled (with a progress bar) and written
// there; a file that does not match or is corrupt is named, with what is wrong, and
// rebuilt. Says on stderr what it did and how long it took.
std::shared_ptr<const r1cs::CompiledR1cs> evaluator_for(const WorkloadSpec& spec, const std::string& synthesis,
                                                        const groth16::ProvingKey& key, const std::string& key_path,
                                                        bool quiet);
// "<key path without its extension>.zkpev"
std::string evaluator_path(const std::string& key_path);

// One partition's witness, through the evaluator when there is one.
groth16::PartitionWitness synthesize_partition(const r1cs::PartitionedCircuit& circuit, std::size_t partition,
                                               const std::shared_ptr<const r1cs::CompiledR1cs>& evaluator);

}  // namespace zkpipe::cli
