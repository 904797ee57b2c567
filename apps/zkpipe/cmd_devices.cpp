// zkpipe devices: what this build and this machine's GPUs will do — the
// architectures the build carries code for (known without a GPU or a driver), then
// each GPU with its capability, memory, link, whether this build runs on it and the
// kernel configuration it would get; with a circuit (--circuit, --preset or
// --sector-size), what a partition of it would need on each GPU and what the prover
// would keep resident and stream there (within --device-memory, or the GPU's free
// memory).
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "backend.hpp"
#include "commands.hpp"
#include "device_plan.hpp"
#include "progress.hpp"
#include "seal_proof_args.hpp"
#include "workloads.hpp"

#ifdef ZKPIPE_WITH_CUDA
#include "gpu/architectures.hpp"
#include "gpu/device_profile.hpp"
#include "gpu/device_query.hpp"
#endif

namespace zkpipe::cli {

namespace {

#ifdef ZKPIPE_WITH_CUDA
void describe_device(int ordinal) {
  const gpu::DeviceProfile profile = gpu::query_profile(ordinal);
  std::cout << "GPU " << ordinal << ": " << gpu::describe_profile(profile) << "; "
            << format_bytes(static_cast<double>(gpu::device_free_bytes(ordinal))) << " free\n";
  const std::optional<gpu::CodeTarget> code = gpu::code_for_device(ordinal);
  if (!code) {
    std::cout << "  does not run: " << gpu::no_code_message(profile.major, profile.minor, gpu::built_architectures())
              << "\n";
    return;
  }
  std::cout << "  runs: " << code->describe()
            << (!code->machine_code ? " (the driver compiles the PTX at the first start: minutes, once per driver)" : "") << "\n";
  const gpu::KernelConfig config = gpu::choose_kernel_config(profile);
  std::cout << "  kernels: NTT tile 2^" << config.ntt_tile_log << " (" << config.ntt_shared_bytes / 1024
            << " KiB shared memory, " << config.ntt_threads << " threads a block)\n";
  for (const std::string& problem : gpu::config_problems(config, profile)) std::cout << "  problem: " << problem << "\n";
}
#endif

struct DevicesOptions {
  WorkloadSpec workload;
  SealProofChoice seal_proof;
  std::optional<std::size_t> device_memory;
  bool with_circuit = false;
};

// The circuit's plan within --device-memory, or on each GPU within its free memory.
void print_circuit_plans(const DevicesOptions& o, [[maybe_unused]] int gpus) {
  const CountedWorkload counted = count_workload(o.workload, o.seal_proof);
  std::cout << "circuit          " << counted.circuit->name() << "\n";
#ifdef ZKPIPE_WITH_CUDA
  if (!o.device_memory && gpus > 0) {
    for (int d = 0; d < gpus; ++d) {
      const std::size_t free_bytes = gpu::device_free_bytes(d);
      std::cout << "GPU " << d << " (" << format_bytes(static_cast<double>(free_bytes)) << " free):\n";
      print_device_plan(counted.shape, free_bytes);
    }
    return;
  }
#endif
  print_device_plan(counted.shape, o.device_memory);
}

void run_devices(const DevicesOptions& o) {
  int gpus = 0;
#ifdef ZKPIPE_WITH_CUDA
  std::cout << "This build carries GPU code for: " << gpu::describe_targets(gpu::built_architectures()) << "\n";
  const gpu::DeviceCount count = gpu::count_devices();
  if (!count.error.empty()) {
    std::cout << "No GPU usable: the CUDA driver says \"" << count.error << "\"\n";
  } else if (count.count == 0) {
    std::cout << "No GPU: the CUDA driver reports none\n";
  } else {
    gpus = count.count;
    for (int d = 0; d < count.count; ++d) describe_device(d);
  }
#else
  std::cout << "This build carries no GPU code: it was configured without nvcc (the CUDA backend is off)\n";
#endif
  if (o.with_circuit) print_circuit_plans(o, gpus);
}

}  // namespace

void register_devices(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "devices", "The GPU architectures this build has code for, and this machine's GPUs: capability, memory, "
                 "PCIe link, whether this build runs on each and with what kernel configuration");
  auto opts = std::make_shared<DevicesOptions>();
  add_circuit_options(*cmd, opts->workload);
  add_seal_proof_variant_options(*cmd, opts->seal_proof);
  add_device_memory_option(
      *cmd, opts->device_memory,
      "With a circuit: the GPU memory to plan its placement within (default: each GPU's free memory)");
  cmd->callback([opts, cmd] {
    const auto given = [&](const char* name) { return cmd->get_option(name)->count() > 0; };
    opts->with_circuit = given("--circuit") || given("--preset") || given("--sector-size");
    if (!opts->with_circuit && opts->device_memory) {
      throw std::invalid_argument("--device-memory with devices plans a circuit's placement: name one "
                                  "(--circuit, --preset or --sector-size)");
    }
    require_sector_size(*cmd, opts->workload);
    run_devices(*opts);
  });
}

}  // namespace zkpipe::cli
