// One line on stderr per partition as it leaves the engine's pipeline: its stages and
// the backend's steps inside start(), the process's peak RSS and, for a device, its
// memory (`zkpipe prove`, `zkpipe groth16 prove --timings`).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "groth16/prover.hpp"

namespace zkpipe::cli {

class PartitionLines final : public engine::EngineListener {
 public:
  PartitionLines(std::vector<std::shared_ptr<groth16::ProverBackend>> backends, bool name_device)
      : backends_(std::move(backends)), name_device_(name_device) {}

  void on_partition_retired(const engine::PartitionTimeline& t) override;

 private:
  // The device's memory: the ledger's and the driver's, which should agree up to the
  // context and small allocations.
  std::string device_note() const;

  std::vector<std::shared_ptr<groth16::ProverBackend>> backends_;
  bool name_device_;
};

}  // namespace zkpipe::cli
