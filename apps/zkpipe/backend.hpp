// The prover backends a command runs on: --backend auto|cpu|cuda [--device N] or, for
// the commands that run an engine, [--devices N,M,…]: one backend per listed device, each
// an engine device with its own resident keys, pools and --gw workers. A GPU listed
// twice gives two engine devices on it (how one GPU tests the several-device path);
// with the cpu backend every entry is one more CPU backend (tests). The CUDA backend
// exists only in a build configured with nvcc (ZKPIPE_WITH_CUDA); elsewhere asking
// for it is an error that says so, as is a build with it on a machine without the
// device.
//
// auto, the default, is cuda when this build has the CUDA backend and the driver
// reports a device, else cpu: a user with a GPU gets it without asking, and the
// summary says which was chosen and why. A --device or --devices list names GPUs, so
// with auto and no usable device it is an error, not a quiet fall back to the CPU
// (a daemon whose GPU went missing must not start proving a hundred times slower);
// --backend cpu --devices 0,0 still gives CPU engine devices.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "formats/device_memory_budget.hpp"
#include "groth16/prover.hpp"
#include "memory/buffer_ledger.hpp"

namespace zkpipe::cli {

struct BackendOptions {
  std::string backend = "auto";  // auto until resolve_backend turns it into cpu or cuda
  std::optional<int> device;     // CUDA device ordinal; 0 when not given
  std::vector<int> devices;      // --devices; empty: the one device of --device
  // --device-memory: the most device memory zkpipe takes on each of its GPUs (one
  // size, or sizes by ordinal); a GPU without one: what the driver says is free
  // (planned with a margin).
  formats::DeviceMemoryBudget device_memory;
  // --no-pinned-copy: what is streamed goes from where it is (staged by host threads)
  // rather than from a page-locked copy (gpu::CudaProverOptions::pin_streamed_sources).
  bool pinned_copy = true;
  // --no-overlap-sums: a streamed H query's MSM before the others' rather than beside
  // them (gpu::CudaProverOptions::overlap_streamed_sums).
  bool overlap_sums = true;
  // Set by resolve_backend when auto chose: for the summary line.
  bool chosen_by_auto = false;
  std::string why_not_cuda;  // auto chose cpu: "no CUDA device: …" or the build's lack of it
};

// --backend (default auto), --device, --device-memory, --no-pinned-copy and --no-overlap-sums.
void add_backend_options(CLI::App& cmd, BackendOptions& options);

// A --device-memory value of one size ("16GiB", "24 GiB", "20000MB"): at least 256
// MiB. Throws std::invalid_argument naming what is wrong (sizes by ordinal included:
// where this is asked for, a budget is not a device's).
std::size_t parse_device_memory(std::string_view text);
// --device-memory SIZE into `bytes` (parse_device_memory; a bad value is a
// validation error naming the option), with the command's own description.
void add_device_memory_option(CLI::App& cmd, std::optional<std::size_t>& bytes, const std::string& description);
// --devices, exclusive with --device (call after add_backend_options).
void add_devices_option(CLI::App& cmd, BackendOptions& options);
// --devices into a list of its own (parse_device_list; a bad list is a usage error).
CLI::Option* add_device_list_option(CLI::App& cmd, std::vector<int>& devices);

// A --devices list: comma-separated non-negative ordinals, repeats allowed, at most
// engine::kMaxDevices. Throws std::invalid_argument naming what is wrong.
std::vector<int> parse_device_list(std::string_view text);

// The engine's devices: --devices, or the one --device names (0 when not given).
std::vector<int> engine_devices(const BackendOptions& options);

// auto made cpu or cuda (see above), once, before anything is built; cpu and cuda
// come back as given. Never touches a device beyond asking the driver how many there
// are: on a machine with no driver or no device it answers cpu. Throws
// std::invalid_argument for auto with a device list and no usable device.
BackendOptions resolve_backend(const BackendOptions& options);

// The functions below resolve an unresolved auto themselves (the same answer as
// resolve_backend's), so that a command that forgot to is still right.

// Throws std::runtime_error naming the problem when the backend cannot run here.
// The backend's own buffers charge `ledger`: the one its engine is given; with
// --device-memory, the ledger's limit for the device is set to it (a GPU with less
// memory than that is refused, naming both figures).
std::shared_ptr<groth16::ProverBackend> make_backend(const BackendOptions& options, memory::BufferLedger& ledger);
// One backend per engine device (engine_devices), each checked as make_backend's.
std::vector<std::shared_ptr<groth16::ProverBackend>> make_backends(const BackendOptions& options,
                                                                   memory::BufferLedger& ledger);

// With --device-memory and the cuda backend: throws std::invalid_argument when it is
// below the least a partition of the key needs on a device (both figures named), so
// that the command stops before any work.
void check_device_memory(const BackendOptions& options, const groth16::ProvingKey& key);

// "cpu backend", "cuda backend (device 0: NVIDIA H200)", "cuda backend on 2 devices
// (0: NVIDIA H200; 1: NVIDIA H200)", "cpu backend on 2 engine devices"; when auto
// chose, followed by ", chosen by --backend auto" or " (--backend auto: no CUDA
// device: …)".
std::string describe_backend(const BackendOptions& options);

// Where the key's query points live for this backend: on the device only (set up
// there), in host memory with a copy resident on the device, in host memory streamed
// to the device at every MSM, or in host memory (cpu).
std::string describe_key_residence(const BackendOptions& options, groth16::ProverBackend& backend,
                                   const groth16::ProvingKey& key);

}  // namespace zkpipe::cli
