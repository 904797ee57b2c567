// What a circuit's partitions would need on a GPU: its shape counted (not recorded:
// at 2^27 the recorded matrices alone would be ~26 GiB), and the placement the CUDA
// prover would choose within a device-memory budget. `circuit info` and `devices`
// print it.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>

#include <CLI/CLI.hpp>

#include "circuits/filecoin/core/seal_proof.hpp"
#include "groth16/footprint.hpp"
#include "r1cs/partitioned_circuit.hpp"
#include "seal_proof_args.hpp"
#include "workloads.hpp"

namespace zkpipe::cli {

inline constexpr const char* kFilecoinPorep = "filecoin-porep";

struct CountedWorkload {
  std::shared_ptr<const r1cs::PartitionedCircuit> circuit;
  const filecoin::core::SealProof* seal = nullptr;  // for filecoin-porep
  groth16::CircuitShape shape;
};

// filecoin-porep names no shape without a sector size: refused (std::invalid_argument)
// when `cmd` was given neither --sector-size nor --preset for it.
void require_sector_size(const CLI::App& cmd, const WorkloadSpec& workload);

// filecoin-porep's shape from its seal proof (every value zero: no synthetic C1 to
// draw for counting), any other circuit's from its shape circuit.
CountedWorkload count_workload(const WorkloadSpec& workload, const SealProofChoice& seal_proof);

// The key's points, the least a partition needs, and with a budget what stays
// resident (a pce witness's evaluator first, then the points) and what each
// partition streams; a line saying so where this build has no CUDA backend.
void print_device_plan(const groth16::CircuitShape& s, std::optional<std::size_t> device_memory);

}  // namespace zkpipe::cli
