// The prover backend a command runs on: --backend cpu|cuda [--device N]. The CUDA
// backend exists only in a build configured with nvcc (ZKPIPE_WITH_CUDA); elsewhere
// asking for it is an error that says so, as is a build with it on a machine
// without the device.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>

#include "groth16/prover.hpp"
#include "memory/buffer_ledger.hpp"

namespace zkpipe::cli {

struct BackendOptions {
  std::string backend = "cpu";
  std::optional<int> device;  // CUDA device ordinal; 0 when not given
};

void add_backend_options(CLI::App& cmd, BackendOptions& options);

// Throws std::runtime_error naming the problem when the backend cannot run here.
// The backend's own buffers charge `ledger`: the one its engine is given.
std::shared_ptr<groth16::ProverBackend> make_backend(const BackendOptions& options, memory::BufferLedger& ledger);

// "cpu backend", or "cuda backend (device 0: NVIDIA H200)".
std::string describe_backend(const BackendOptions& options);

// Where the key's query points live for this backend: on the device only (set up
// there), in host memory with a copy resident on the device, in host memory streamed
// to the device at every MSM, or in host memory (cpu).
std::string describe_key_residence(const BackendOptions& options, groth16::ProverBackend& backend,
                                   const groth16::ProvingKey& key);

}  // namespace zkpipe::cli
