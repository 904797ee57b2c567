// The test-only setup behind `zkpipe setup` and the benchmark's parameters: the
// circuit compiled (the pce evaluator, which proving reuses), the setup scalars from
// it, then the fixed-base multiplications on the host's cores (--backend cpu) or on
// a device (--backend cuda), with a progress bar and each step's time on stderr.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "backend.hpp"
#include "groth16/footprint.hpp"
#include "groth16/keys.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/partitioned_circuit.hpp"
#include "workloads.hpp"

namespace zkpipe::cli {

inline constexpr std::uint64_t kDefaultSetupSeed = 0x7a6b70697065;  // TEST-ONLY toxic waste

struct SetupRequest {
  WorkloadSpec workload;  // its partitions do not matter: every partition has one shape
  BackendOptions backend;
  // With --backend cuda: the key's queries stay on the device (nothing on the host,
  // nothing to write); otherwise they come back to host memory.
  bool keep_on_device = false;
  std::uint64_t setup_seed = kDefaultSetupSeed;
  bool quiet = false;
};

struct SetUpParameters {
  std::shared_ptr<const groth16::ProvingKey> key;
  std::shared_ptr<const r1cs::CompiledR1cs> evaluator;
  std::string circuit_name;
};

// What a circuit's key and evaluator take in host memory, from its counted shape: the
// key's points in zkpipe's layout (a bellperson .params is a few percent smaller), the
// compiled evaluator (8 bytes a matrix entry, 24 a row), the setup's query scalars.
struct KeyFootprint {
  std::size_t key = 0;
  std::size_t evaluator = 0;
  std::size_t scalars = 0;

  static KeyFootprint of(const groth16::CircuitShape& shape);
};

// Before any work: the host memory and (with outputs) the disk a setup of `circuit`
// needs, estimated from its counted shape — the compiled evaluator, the query
// scalars, the key in host memory unless it stays on the device or streams to its
// file (set_up_to_file on the host's cores); the key's file and
// the evaluator's beside it — against what this machine has (MemAvailable, the
// address-space limit, the free space of the outputs' file system). Throws
// std::invalid_argument (exit 2) naming the need and what is available.
void check_setup_fits(const SetupRequest& request, const r1cs::PartitionedCircuit& circuit,
                      const std::filesystem::path& key_out);

SetUpParameters set_up_parameters(const SetupRequest& request);
// The same for a circuit given here (request.workload unused): one partition's shape.
SetUpParameters set_up_parameters(const SetupRequest& request, const r1cs::PartitionedCircuit& circuit);

// The setup written to `path` with its evaluator beside it. On the host's cores each
// query's points go to the file as they are computed (the key is never whole in
// memory); with --backend cuda the key is computed on the device, copied back and
// written (write_parameters).
void set_up_to_file(const SetupRequest& request, const r1cs::PartitionedCircuit& circuit,
                    const std::filesystem::path& path);

// The key at path (written under a temporary name, then renamed, so an interrupted
// write never leaves a truncated file) and its evaluator in the cache file beside it.
void write_parameters(const std::filesystem::path& path, const SetUpParameters& parameters);

// The evaluator in the cache file beside the key at key_path (proving/evaluator_cache.hpp),
// for a key written in another format; a failure is a warning on stderr: proving
// compiles the evaluator again when it finds no cache.
void cache_evaluator(const std::filesystem::path& key_path, const SetUpParameters& parameters);

// The bytes of the key's query points, wherever they live.
std::size_t key_point_bytes(const groth16::ProvingKey& key);

// One line per query: its points, bytes and where they live ("host", or "device N").
std::string describe_key_placement(const groth16::ProvingKey& key);

}  // namespace zkpipe::cli
