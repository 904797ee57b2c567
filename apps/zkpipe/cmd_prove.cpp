// zkpipe prove: every partition of one circuit instance through the engine — the
// same pipeline, memory budget, ledger and trace as `zkpipe bench` — then each
// partition's proof verified and the proofs written.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "backend.hpp"
#include "device_summary.hpp"
#include "commands.hpp"
#include "engine/engine.hpp"
#include "engine/run_recorder.hpp"
#include "file_args.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/verifier.hpp"
#include "host_memory_check.hpp"
#include "io/atomic_file.hpp"
#include "io/file_mapping.hpp"
#include "memory/buffer_ledger.hpp"
#include "memory/process_memory.hpp"
#include "partition_lines.hpp"
#include "progress.hpp"
#include "proving/proof_request.hpp"
#include "workloads.hpp"

namespace zkpipe::cli {

namespace {

struct ProveOptions {
  WorkloadSpec workload;
  std::string key;
  std::string out;
  std::string json_dir;
  std::string trace_path;
  BackendOptions backend;
  std::string synthesis = "pce";
  std::size_t synthesis_workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
  std::size_t workers_per_device = 1;
  bool self_verify = true;
  bool quiet = false;
};

void run_prove(const ProveOptions& o) {
  refuse_overwriting_inputs({o.key}, {o.out, o.trace_path});
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
  engine::EngineConfig config;
  config.synthesis_workers = std::min(o.synthesis_workers, o.workload.partitions);
  config.workers_per_device = o.workers_per_device;
  config.ledger = &ledger;
  // What this process may take, plus the key and evaluator already counted in it,
  // which the engine charges again when it makes them resident (as bench's auto budget).
  if (const std::size_t usable = memory::usable_memory().bytes; usable != 0) {
    config.budget_bytes =
        usable + engine::parameter_bytes(*key) + (evaluator ? engine::evaluator_bytes(*evaluator) : 0);
  }
  engine::Engine eng(config, backends);
  if (!o.quiet) eng.add_listener(std::make_shared<PartitionLines>(backends, backends.size() > 1));
  auto recorder = std::make_shared<engine::RunRecorder>();
  if (!o.trace_path.empty()) eng.add_listener(recorder);

  proving::PreparedRequest prepared =
      proving::preset_request(proving::request_basis(eng.make_resident(key, evaluator), *backends.front()), circuit);
  engine::ProofRequest request = std::move(prepared.request);
  const proving::PartitionVerifier verifier(prepared.check, o.workload.partitions);
  request.verify = o.self_verify ? verifier.hook() : nullptr;
  engine::ProofResult result;
  try {
    result = eng.submit(std::move(request)).get();
  } catch (const engine::RequestFailed& e) {
    key_file->expect_undamaged();
    if (const auto p = verifier.failed()) {
      throw std::runtime_error("partition " + std::to_string(*p) +
                               "'s proof does not verify, nothing written: " + o.key + " or the backend is faulty");
    }
    throw;
  }
  key_file->expect_undamaged();
  if (!o.quiet && backends.size() > 1) print_device_summary(std::cerr, eng.device_status(), result.seconds);
  eng.shutdown(engine::ShutdownMode::drain);

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
  if (!o.trace_path.empty()) {
    std::ostringstream trace;
    recorder->write_chrome_trace(trace);
    io::write_file_atomically(o.trace_path, trace.str());
  }
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
  cmd->add_option("--trace", opts->trace_path, "Write a Chrome trace-event JSON file (open in ui.perfetto.dev)")
      ->check(output_file());
  cmd->add_option("--pw", opts->synthesis_workers, "Partitions in synthesis at once (default: the core count)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, engine::kMaxWorkers));
  cmd->add_option("--gw", opts->workers_per_device, "Device workers per device")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, engine::kMaxWorkers));
  add_backend_options(*cmd, opts->backend);
  add_devices_option(*cmd, opts->backend);
  add_synthesis_option(*cmd, opts->synthesis);
  cmd->add_flag("--verify,!--no-verify", opts->self_verify,
                "Verify each partition's proof before writing (the default)");
  cmd->add_flag("--quiet", opts->quiet, "No per-partition lines");
  cmd->callback([opts] {
    opts->backend = resolve_backend(opts->backend);  // once: the backends and the summary see one choice
    run_prove(*opts);
  });
}

}  // namespace zkpipe::cli
