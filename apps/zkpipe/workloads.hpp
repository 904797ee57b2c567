// Which circuit a command works on (proving::PresetWorkload: the circuit family, its
// preset, the seed its witnesses and public inputs derive from, the number of
// partitions), its command-line options, and its evaluator for --synthesis pce.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "groth16/keys.hpp"
#include "proving/preset_workload.hpp"
#include "r1cs/compiled_r1cs.hpp"

namespace zkpipe::cli {

using WorkloadSpec = proving::PresetWorkload;
using proving::make_circuit;

void add_circuit_options(CLI::App& cmd, WorkloadSpec& spec);
void add_instance_options(CLI::App& cmd, WorkloadSpec& spec);

// --synthesis assignment|pce: how each partition's witness is built (groth16/synthesis.hpp).
void add_synthesis_option(CLI::App& cmd, std::string& synthesis);

// The pre-compiled evaluator of the spec's circuit shape for --synthesis pce (null for
// assignment), from the cache beside the key (proving/evaluator_cache.hpp), compiled
// with a progress bar when it is not there or does not match; a cache file passed
// over, or one that could not be written, is named on stderr with what is wrong.
// Says on stderr what it did and how long it took.
std::shared_ptr<const r1cs::CompiledR1cs> evaluator_for(const WorkloadSpec& spec, const std::string& synthesis,
                                                        const groth16::ProvingKey& key, const std::string& key_path,
                                                        bool quiet);
// The same for a circuit given here (always the pce path).
std::shared_ptr<const r1cs::CompiledR1cs> evaluator_for(const r1cs::PartitionedCircuit& circuit,
                                                        const groth16::ProvingKey& key, const std::string& key_path,
                                                        bool quiet);

}  // namespace zkpipe::cli
