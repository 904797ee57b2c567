#include <chrono>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "progress.hpp"
#include "workloads.hpp"

namespace zkpipe::cli {

namespace {

struct SetupOptions {
  WorkloadSpec workload;
  std::string out;
  std::uint64_t setup_seed = 0x7a6b70697065;
  bool quiet = false;
};

void run_setup(const SetupOptions& o) {
  using clock = std::chrono::steady_clock;
  auto circuit = make_circuit(o.workload);
  auto t0 = clock::now();
  r1cs::R1csMatrices m = groth16::record_matrices(*circuit);
  auto t1 = clock::now();
  std::cerr << "circuit " << circuit->name() << ": " << m.num_constraints() << " constraints, " << m.num_inputs
            << " inputs, " << m.num_aux << " aux (recorded in "
            << format_seconds(std::chrono::duration<double>(t1 - t0).count()) << ")\n";
  groth16::ProvingKey key;
  {
    ProgressBar bar(!o.quiet);
    key = groth16::setup(m, groth16::ToxicWaste::from_seed(o.setup_seed),
                         [&](std::string_view q, std::size_t done, std::size_t total) { bar.update(q, done, total); });
  }
  auto t2 = clock::now();
  groth16::write_parameter_file(o.out, key);
  std::cerr << "setup done in " << format_seconds(std::chrono::duration<double>(t2 - t1).count()) << "; wrote "
            << o.out << "\n";
  std::cerr << "WARNING: test-only parameters: the toxic waste derives from --setup-seed\n";
}

}  // namespace

void register_setup(CLI::App& app) {
  auto opts = std::make_shared<SetupOptions>();
  CLI::App* cmd = app.add_subcommand("setup", "Groth16 setup for a circuit preset (test-only toxic waste)");
  add_circuit_options(*cmd, opts->workload);
  cmd->add_option("--out", opts->out, "Parameter file to write")->required();
  cmd->add_option("--setup-seed", opts->setup_seed, "Seed the toxic waste derives from (NOT secure)");
  cmd->add_flag("--quiet", opts->quiet, "No progress bar");
  cmd->callback([opts] { run_setup(*opts); });
}

}  // namespace zkpipe::cli
