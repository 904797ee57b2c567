// One engine device as Engine::device_status() reports it: its backend, the GPU it
// drives, whether it is still given work, and what it did.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "groth16/prover.hpp"
#include "memory/buffer_ledger.hpp"

namespace zkpipe::engine {

struct DeviceStatus {
  std::string backend;          // the backend's name: cpu, cuda, …
  std::optional<int> ordinal;   // the GPU it drives; several engine devices may share one
  bool healthy = true;
  std::string failure;          // why it was isolated; empty while healthy
  double busy_seconds = 0;      // during which at least one start() was in progress
  std::optional<double> measured_busy_seconds;  // as the device measures it (ProverBackend::device_busy_seconds)
  std::size_t partitions_proved = 0;
  std::size_t partitions_reassigned = 0;  // it failed under them; they went to another device
  // The ledger's share of Stage::device for its ordinal (the whole GPU's, when engine
  // devices share one); zeros for a backend without a device.
  memory::StageTotals memory;
  // What it keeps on its device and streams (ProverBackend::placement); nullopt for
  // a backend without a device.
  std::optional<groth16::ProverBackend::Placement> placement;
  // Its GPU's memory as the driver reports it, all users counted; nullopt without a
  // device or when the driver cannot tell.
  std::optional<std::size_t> driver_total_bytes;
  std::optional<std::size_t> driver_used_bytes;
};

}  // namespace zkpipe::engine
