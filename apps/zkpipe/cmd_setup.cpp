#include <chrono>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "file_args.hpp"
#include "progress.hpp"
#include "proving/evaluator_cache.hpp"
#include "setup_run.hpp"

namespace zkpipe::cli {

namespace {

struct SetupOptions {
  SetupRequest request;
  std::string out;
};

void run_setup(const SetupOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  WorkloadSpec one = o.request.workload;
  one.partitions = 1;
  const auto circuit = make_circuit(one);
  SetupRequest request = o.request;
  request.backend = resolve_backend(request.backend);  // probed once, for the check and the setup
  check_setup_fits(request, *circuit, o.out);
  set_up_to_file(request, *circuit, o.out);
  std::cerr << "setup done in " << format_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count())
            << "; wrote " << o.out << " and its evaluator " << proving::evaluator_path(o.out).string() << "\n";
  std::cerr << "WARNING: test-only parameters: the toxic waste derives from --setup-seed\n";
}

}  // namespace

void register_setup(CLI::App& app) {
  auto opts = std::make_shared<SetupOptions>();
  CLI::App* cmd = app.add_subcommand("setup", "Groth16 setup for a circuit preset (test-only toxic waste)");
  add_circuit_options(*cmd, opts->request.workload);
  add_backend_options(*cmd, opts->request.backend);
  cmd->add_option("--out", opts->out, "Parameter file to write (its evaluator is cached beside it)")
      ->required()
      ->check(output_file());
  cmd->add_option("--setup-seed", opts->request.setup_seed, "Seed the toxic waste derives from (NOT secure)");
  cmd->add_flag("--quiet", opts->request.quiet, "No progress bar");
  cmd->callback([opts] { run_setup(*opts); });
}

}  // namespace zkpipe::cli
