// A preset circuit instance: the circuit family, its size preset, the seed its
// witnesses and public inputs derive from, and its number of partitions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "r1cs/partitioned_circuit.hpp"

namespace zkpipe::proving {

struct PresetWorkload {
  std::string circuit = "porep-like";
  std::string preset = "tiny";
  std::uint64_t seed = 1;
  std::size_t partitions = 1;
};

// Throws std::invalid_argument naming the valid circuits / presets.
std::unique_ptr<r1cs::PartitionedCircuit> make_circuit(const PresetWorkload& workload);

}  // namespace zkpipe::proving
