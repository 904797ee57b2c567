#include "backend.hpp"

#include <limits>
#include <stdexcept>

#include "groth16/cpu_prover.hpp"

#ifdef ZKPIPE_WITH_CUDA
#include "gpu/cuda_prover.hpp"
#include "gpu/device_memory.hpp"
#endif

namespace zkpipe::cli {

namespace {

bool is_cuda(const BackendOptions& o) { return o.backend == "cuda"; }

int ordinal(const BackendOptions& o) { return o.device.value_or(0); }

}  // namespace

void add_backend_options(CLI::App& cmd, BackendOptions& o) {
  cmd.add_option("--backend", o.backend, "Prover backend: cpu, or cuda (an NVIDIA GPU)")
      ->capture_default_str()
      ->check(CLI::IsMember({"cpu", "cuda"}));
  cmd.add_option("--device", o.device, "CUDA device ordinal for --backend cuda (default 0)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
}

std::shared_ptr<groth16::ProverBackend> make_backend(const BackendOptions& o,
                                                     [[maybe_unused]] memory::BufferLedger& ledger) {
  if (!is_cuda(o)) {
    if (o.device) throw std::invalid_argument("--device applies only to --backend cuda");
    return std::make_shared<groth16::CpuProver>();
  }
#ifdef ZKPIPE_WITH_CUDA
  gpu::require_device(ordinal(o));
  return std::make_shared<gpu::CudaProver>(ordinal(o), gpu::CudaProverOptions{.ledger = &ledger});
#else
  throw std::runtime_error(
      "--backend cuda: this zkpipe was built without the CUDA backend (nvcc not found at configure time)");
#endif
}

std::string describe_backend(const BackendOptions& o) {
  if (!is_cuda(o)) return "cpu backend";
  std::string text = "cuda backend (device " + std::to_string(ordinal(o));
#ifdef ZKPIPE_WITH_CUDA
  text += ": " + gpu::device_name(ordinal(o));
#endif
  return text + ")";
}

std::string describe_key_residence(const BackendOptions& o, [[maybe_unused]] groth16::ProverBackend& backend,
                                   const groth16::ProvingKey& key) {
  if (const auto& on = key.a.on_device()) {
    return "on device " + std::to_string(on->device) + " only (set up there, no host copy)";
  }
  if (!is_cuda(o)) return "in host memory";
#ifdef ZKPIPE_WITH_CUDA
  if (auto* cuda = dynamic_cast<gpu::CudaProver*>(&backend)) {
    switch (cuda->base_placement(key)) {
      case gpu::BasePlacement::kResident:
        return "in host memory, a copy resident on device " + std::to_string(ordinal(o));
      case gpu::BasePlacement::kStreamed:
        return "in host memory, streamed to device " + std::to_string(ordinal(o)) + " at every MSM";
      case gpu::BasePlacement::kNotLoaded:
        break;
    }
  }
#endif
  return "in host memory (not yet placed on the device)";
}

}  // namespace zkpipe::cli
