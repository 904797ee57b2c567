// zkpipe devices: what this build and this machine's GPUs will do — the
// architectures the build carries code for (known without a GPU or a driver), then
// each GPU with its capability, memory, link, whether this build runs on it and the
// kernel configuration it would get.
#include <iostream>
#include <string>

#include "commands.hpp"
#include "progress.hpp"

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

void run_devices() {
#ifdef ZKPIPE_WITH_CUDA
  std::cout << "This build carries GPU code for: " << gpu::describe_targets(gpu::built_architectures()) << "\n";
  const gpu::DeviceCount count = gpu::count_devices();
  if (!count.error.empty()) {
    std::cout << "No GPU usable: the CUDA driver says \"" << count.error << "\"\n";
    return;
  }
  if (count.count == 0) {
    std::cout << "No GPU: the CUDA driver reports none\n";
    return;
  }
  for (int d = 0; d < count.count; ++d) describe_device(d);
#else
  std::cout << "This build carries no GPU code: it was configured without nvcc (the CUDA backend is off)\n";
#endif
}

}  // namespace

void register_devices(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand(
      "devices", "The GPU architectures this build has code for, and this machine's GPUs: capability, memory, "
                 "PCIe link, whether this build runs on each and with what kernel configuration");
  cmd->callback([] { run_devices(); });
}

}  // namespace zkpipe::cli
