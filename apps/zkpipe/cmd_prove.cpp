// zkpipe prove: every partition of one circuit instance through the engine — the
// same pipeline, memory budget, ledger and trace as `zkpipe bench` — then each
// partition's proof verified and the proofs written.
#include <filesystem>
#include <iostream>
#include <memory>
#include <vector>

#include "backend.hpp"
#include "device_summary.hpp"
#include "commands.hpp"
#include "engine/engine.hpp"
#include "engine_options.hpp"
#include "file_args.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/verifier.hpp"
#include "host_memory_check.hpp"
#include "io/atomic_file.hpp"
#include "io/file_mapping.hpp"
#include "memory/buffer_ledger.hpp"
#include "partition_lines.hpp"
#include "progress.hpp"
#include "proving/proof_request.hpp"
#include "proving/prove_on_engine.hpp"
#include "workloads.hpp"

namespace zkpipe::cli {

namespace {

struct ProveOptions {
  WorkloadSpec workload;
  std::string key;
  std::string out;
  std::string json_dir;
  BackendOptions backend;
  EngineOptions engine;
  std::string synthesis = "pce";
  bool quiet = false;
};

void run_prove(const ProveOptions& o) {
  refuse_overwriting_inputs({o.key}, {o.out, o.engine.trace_path});
  // The backend first: a missing device fails before any work is done.
  memory::BufferLedger& ledger = memory::BufferLedger::process();
  const std::vector<std::shared_ptr<groth16::ProverBackend>> backends = make_backends(o.backend, ledger);
  if (!o.quiet) std::cerr << "proving on the " << describe_backend(o.backend) << "\n";
  const std::shared_ptr<const r1cs::PartitionedCircuit> circuit = make_circuit(o.workload);
  // Kept, to ask before writing whether the file was truncated under the provers.
  const auto key_file = io::FileMapping::open(o.key);
  auto key = std::make_shared<const groth16::ProvingKey>(groth16::load_parameter_file(key_file));
  check_device_memory(o.backend, *key);
  refuse_partition_that_cannot_fit(*key, o.synthesis == "pce", *backends.front());
  const auto evaluator = evaluator_for(o.workload, o.synthesis, *key, o.key, o.quiet);

  proving::EngineRun run =
      engine_run(o.engine, o.workload.partitions, *key, evaluator.get(), 0, *backends.front(), ledger);
  if (!o.quiet) run.listeners.push_back(std::make_shared<PartitionLines>(backends, backends.size() > 1));
  proving::ProofInputs inputs = proving::preset_inputs(key, evaluator, circuit);
  inputs.expect_inputs_undamaged = [&key_file] { key_file->expect_undamaged(); };
  proving::EngineRunResult proved;
  try {
    proved = proving::prove_on_engine(backends, run, inputs);
  } catch (const proving::ProofNotVerified& e) {
    throw std::runtime_error(std::string(e.what()) + ", nothing written: " + o.key + " or the backend is faulty");
  }
  const engine::ProofResult& result = proved.result;
  if (!o.quiet && backends.size() > 1) print_device_summary(std::cerr, proved.devices, result.seconds);

  auto bytes = groth16::encode_proofs(result.proofs);
  io::write_file_atomically(o.out, bytes);
  if (!o.json_dir.empty()) {
    std::filesystem::create_directories(o.json_dir);
    for (std::size_t p = 0; p < result.proofs.size(); ++p) {
      const std::filesystem::path dir(o.json_dir);
      io::write_file_atomically(dir / ("proof_" + std::to_string(p) + ".json"),
                                formats::proof_to_json(result.proofs[p]));
      io::write_file_atomically(dir / ("public_" + std::to_string(p) + ".json"),
                                formats::public_to_json(circuit->public_inputs(p)));
    }
  }
  if (run.trace) io::write_file_atomically(o.engine.trace_path, proved.chrome_trace);
  std::cerr << "wrote " << bytes.size() << " bytes (" << result.proofs.size() << " partition proofs"
            << (result.verified ? ", each verified" : "") << ") to " << o.out << " in "
            << format_seconds(result.seconds) << "\n";
}

}  // namespace

void register_prove(CLI::App& app) {
  auto opts = std::make_shared<ProveOptions>();
  CLI::App* cmd = app.add_subcommand("prove", "Prove every partition of a circuit instance through the engine");
  add_circuit_options(*cmd, opts->workload);
  add_instance_options(*cmd, opts->workload);
  cmd->add_option("--key", opts->key, "Parameter file from `zkpipe setup`")->required();
  cmd->add_option("--out", opts->out, "Proof file to write (192 bytes per partition)")->required()->check(output_file());
  cmd->add_option("--json-dir", opts->json_dir,
                  "Also write each partition's proof_<p>.json and public_<p>.json (snarkjs layout)");
  add_engine_options(*cmd, opts->engine);
  add_backend_options(*cmd, opts->backend);
  add_devices_option(*cmd, opts->backend);
  add_synthesis_option(*cmd, opts->synthesis);
  cmd->add_flag("--quiet", opts->quiet, "No per-partition lines");
  cmd->callback([opts] {
    opts->backend = resolve_backend(opts->backend);  // once: the backends and the summary see one choice
    run_prove(*opts);
  });
}

}  // namespace zkpipe::cli
