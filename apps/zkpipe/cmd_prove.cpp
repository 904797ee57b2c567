#include <chrono>
#include <filesystem>
#include <optional>
#include <iostream>
#include <memory>
#include <vector>

#include "backend.hpp"
#include "commands.hpp"
#include "file_args.hpp"
#include "formats/file_io.hpp"
#include "engine/buffer_ledger.hpp"
#include "engine/process_memory.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "progress.hpp"
#include "workloads.hpp"

namespace zkpipe::cli {

namespace {

struct ProveOptions {
  WorkloadSpec workload;
  std::string key;
  std::string out;
  std::string json_dir;
  BackendOptions backend;
  std::string synthesis = "pce";
  bool self_verify = true;
  bool quiet = false;
};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The device's memory after a partition, the ledger's and the driver's: the two
// should agree up to the context and small allocations.
std::string device_memory_note(const engine::DeviceMemoryProbe& probe) {
  if (!probe) return "";
  const engine::StageTotals dev = engine::BufferLedger::process().snapshot()[engine::Stage::device];
  std::string note = ", device memory " + format_bytes(static_cast<double>(dev.bytes)) + " in " +
                     std::to_string(dev.count) + " ledger buffers";
  if (const auto used = probe()) note += " (" + format_bytes(static_cast<double>(*used)) + " in use on the device)";
  return note;
}

void run_prove(const ProveOptions& o) {
  refuse_overwriting_inputs({o.key}, {o.out});
  // The backend first: a missing device fails before any work is done.
  const std::shared_ptr<groth16::ProverBackend> backend = make_backend(o.backend);
  const engine::DeviceMemoryProbe device_used = device_memory_probe(o.backend);
  if (!o.quiet) std::cerr << "proving on the " << describe_backend(o.backend) << "\n";
  auto circuit = make_circuit(o.workload);
  groth16::ProvingKey key = groth16::load_parameter_file(o.key);
  const auto evaluator = evaluator_for(o.workload, o.synthesis, key, o.key, o.quiet);
  std::optional<groth16::PreparedVerifyingKey> pvk;
  if (o.self_verify) pvk.emplace(key.vk);
  std::vector<groth16::Proof> proofs;
  for (std::size_t p = 0; p < o.workload.partitions; ++p) {
    auto t = std::chrono::steady_clock::now();
    groth16::PartitionWitness w = synthesize_partition(*circuit, p, evaluator);
    double synth = seconds_since(t);
    t = std::chrono::steady_clock::now();
    auto pending = backend->start(w, key, groth16::Blinding::random());
    w.release_abc();
    double start = seconds_since(t);
    std::string steps;
    for (const auto& step : pending->timings) steps += " " + step.stage + "=" + format_seconds(step.seconds);
    t = std::chrono::steady_clock::now();
    proofs.push_back(backend->finish(std::move(pending)));
    double finish = seconds_since(t);
    std::string verified;
    if (pvk) {
      t = std::chrono::steady_clock::now();
      if (!groth16::verify(*pvk, proofs.back(), circuit->public_inputs(p))) {
        throw std::runtime_error("partition " + std::to_string(p) + "'s proof does not verify, nothing written: " +
                                 o.key + " or the backend is faulty");
      }
      verified = ", verified in " + format_seconds(seconds_since(t));
    }
    if (!o.quiet) {
      std::cerr << "partition " << p + 1 << "/" << o.workload.partitions << ": synthesis "
                << format_seconds(synth) << ", start " << format_seconds(start) << " (" << steps.substr(1)
                << "), finish " << format_seconds(finish) << verified << ", peak RSS "
                << format_bytes(double(engine::peak_resident_bytes())) << device_memory_note(device_used) << "\n";
    }
  }
  auto bytes = groth16::encode_proofs(proofs);
  formats::write_file_atomically(o.out, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (!o.json_dir.empty()) {
    std::filesystem::create_directories(o.json_dir);
    for (std::size_t p = 0; p < proofs.size(); ++p) {
      const std::filesystem::path dir(o.json_dir);
      formats::write_file_atomically(dir / ("proof_" + std::to_string(p) + ".json"), formats::proof_to_json(proofs[p]));
      formats::write_file_atomically(dir / ("public_" + std::to_string(p) + ".json"),
                               formats::public_to_json(circuit->public_inputs(p)));
    }
  }
  std::cerr << "wrote " << bytes.size() << " bytes (" << proofs.size() << " partition proofs) to " << o.out << "\n";
}

}  // namespace

void register_prove(CLI::App& app) {
  auto opts = std::make_shared<ProveOptions>();
  CLI::App* cmd = app.add_subcommand("prove", "Prove every partition of a circuit instance (CPU or CUDA backend)");
  add_circuit_options(*cmd, opts->workload);
  add_instance_options(*cmd, opts->workload);
  cmd->add_option("--key", opts->key, "Parameter file from `zkpipe setup`")->required();
  cmd->add_option("--out", opts->out, "Proof file to write (192 bytes per partition)")->required();
  cmd->add_option("--json-dir", opts->json_dir,
                  "Also write each partition's proof_<p>.json and public_<p>.json (snarkjs layout)");
  add_backend_options(*cmd, opts->backend);
  add_synthesis_option(*cmd, opts->synthesis);
  cmd->add_flag("--verify,!--no-verify", opts->self_verify,
                "Verify each partition's proof before writing (the default; its time is printed per partition)");
  cmd->add_flag("--quiet", opts->quiet, "No per-partition lines");
  cmd->callback([opts] { run_prove(*opts); });
}

}  // namespace zkpipe::cli
