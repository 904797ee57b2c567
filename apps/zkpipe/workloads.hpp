// Which circuit a command works on: the circuit family, its preset, the seed its
// witnesses and public inputs derive from, and the number of partitions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

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

}  // namespace zkpipe::cli
