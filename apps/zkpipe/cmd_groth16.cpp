// zkpipe groth16 prove|verify: the snarkjs / rapidsnark command line, on BLS12-381.
//
//   zkpipe groth16 prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>
//   zkpipe groth16 verify <verification_key.json> <public.json> <proof.json>
//
// The files are snarkjs's, and so is the JSON zkpipe writes (snarkjs verifies it).
// prove runs the job through the engine, as `zkpipe prove` and the daemon's circom
// jobs do: its memory budget and ledger, the engine options every proving command
// takes (--pw, --gw, --budget, --trace, --verify) and the backend's.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>

#include "backend.hpp"
#include "commands.hpp"
#include "engine/engine.hpp"
#include "engine_options.hpp"
#include "file_args.hpp"
#include "formats/format_error.hpp"
#include "io/atomic_file.hpp"
#include "io/bounded_read.hpp"
#include "io/file_mapping.hpp"
#include "formats/r1cs_file.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/snarkjs_witness.hpp"
#include "formats/zkey_file.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/verifier.hpp"
#include "insecure_key.hpp"
#include "io/file_mapping.hpp"
#include "io/read_only_file.hpp"
#include "memory/buffer_ledger.hpp"
#include "partition_lines.hpp"
#include "proving/proof_request.hpp"
#include "proving/prove_on_engine.hpp"

namespace zkpipe::cli {

namespace {

struct Groth16ProveOptions {
  std::string key;
  std::string witness;
  std::string proof;
  std::string public_signals;
  std::string r1cs;
  bool check_subgroup = false;
  bool timings = false;
  EngineOptions engine;
  BackendOptions backend;
  groth16::InsecureKey insecure_key = groth16::InsecureKey::kRefuse;
};

struct Groth16VerifyOptions {
  std::string vk;
  std::string public_signals;
  std::string proof;
  groth16::InsecureKey insecure_key = groth16::InsecureKey::kRefuse;
};

class Timer {
 public:
  explicit Timer(bool enabled) : enabled_(enabled) {}
  void lap(const char* what) {
    const auto now = std::chrono::steady_clock::now();
    if (enabled_) {
      std::fprintf(stderr, "%-10s %8.3f s\n", what, std::chrono::duration<double>(now - last_).count());
    }
    last_ = now;
  }

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

bool is_native_parameter_file(const std::string& path) {
  // The mapping refuses FIFOs and devices before a byte is read.
  const auto file = io::FileMapping::open(path);
  const auto bytes = file->bytes();
  return bytes.size() >= 8 && std::string_view(reinterpret_cast<const char*>(bytes.data()), 8) == "ZKPIPEPK";
}

// The key and what maps the witness to the prover's a, b, c: a .zkey's coefficient
// lists, or the .r1cs for a native parameter file imported from a .zkey.
struct CircomKey {
  std::shared_ptr<const groth16::ProvingKey> key;
  std::shared_ptr<const io::FileMapping> mapping;  // a native key's file, viewed in place
  proving::CircomInstance instance;
  std::size_t companion_bytes = 0;  // the coefficient lists, kept beside the key
};

CircomKey load_key(const Groth16ProveOptions& o) {
  CircomKey out;
  if (!o.r1cs.empty()) {
    out.instance.r1cs = std::make_shared<const formats::R1csFile>(formats::read_r1cs(o.r1cs));
    out.instance.r1cs_name = o.r1cs;
  }
  if (is_native_parameter_file(o.key)) {
    if (!out.instance.r1cs) {
      throw std::runtime_error(o.key + " is a native parameter file: pass the circuit with --r1cs to prove with it");
    }
    out.mapping = io::FileMapping::open(o.key);
    out.key = std::make_shared<const groth16::ProvingKey>(
        groth16::load_parameter_file(out.mapping, {.insecure_key = o.insecure_key}));
    if (out.key->h_query != groth16::HQuery::kSnarkjsOddCoset) {
      throw std::runtime_error(o.key + " was not imported from a snarkjs .zkey (zkpipe zkey import)");
    }
    return out;
  }
  formats::Zkey zkey = formats::read_zkey(o.key, {.check_subgroup = o.check_subgroup, .insecure_key = o.insecure_key});
  if (out.instance.r1cs) formats::check_same_circuit(*out.instance.r1cs, o.r1cs, zkey.header, o.key);
  auto circuit = std::make_shared<const proving::ZkeyCircuit>(
      proving::ZkeyCircuit{zkey.header, std::move(zkey.a_coefficients), std::move(zkey.b_coefficients)});
  out.companion_bytes = circuit->bytes();
  out.instance.zkey = std::move(circuit);
  out.key = std::make_shared<const groth16::ProvingKey>(std::move(zkey.key));
  return out;
}

void run_prove(const Groth16ProveOptions& o) {
  refuse_overwriting_inputs({o.key, o.witness, o.r1cs}, {o.proof, o.public_signals, o.engine.trace_path});
  // The backend first: a missing device fails before any work is done.
  memory::BufferLedger& ledger = memory::BufferLedger::process();
  const std::vector<std::shared_ptr<groth16::ProverBackend>> backends = make_backends(o.backend, ledger);
  Timer timer(o.timings);
  // Opened (a FIFO refused) now, read in synthesis.
  const std::shared_ptr<const io::ReadOnlyFile> witness_file = io::ReadOnlyFile::open(o.witness);
  CircomKey loaded = load_key(o);
  check_device_memory(o.backend, *loaded.key);
  loaded.instance.witness = witness_file;
  timer.lap("read_key");

  proving::EngineRun run =
      engine_run(o.engine, 1, *loaded.key, nullptr, loaded.companion_bytes, *backends.front(), ledger);
  if (o.timings) run.listeners.push_back(std::make_shared<PartitionLines>(backends, false));
  const proving::ProofInputs inputs{
      .key = loaded.key,
      .evaluator = nullptr,
      .companion_bytes = loaded.companion_bytes,
      .insecure = o.insecure_key,
      .request = [&loaded](const proving::RequestBasis& basis) { return proving::circom_request(basis, loaded.instance); },
      .expect_inputs_undamaged =
          [&loaded] {
            if (loaded.mapping) loaded.mapping->expect_undamaged();
          },
  };
  proving::EngineRunResult proved;
  try {
    proved = proving::prove_on_engine(backends, run, inputs);
  } catch (const proving::ProofNotVerified&) {
    throw std::runtime_error("the proof does not verify, nothing written: " + o.witness +
                             " does not satisfy the circuit of " + o.key + ", or one of the two is corrupt");
  }
  timer.lap("prove");

  const groth16::Proof& proof = proved.result.proofs.front();
  io::write_file_atomically(o.proof, formats::proof_to_json(proof));
  io::write_file_atomically(o.public_signals, formats::public_to_json(*proved.public_signals));
  if (run.trace) io::write_file_atomically(o.engine.trace_path, proved.chrome_trace);
  timer.lap("write");
}

void run_verify(const Groth16VerifyOptions& o) {
  const groth16::VerifyingKey vk = formats::verifying_key_from_json(
      io::read_bounded_file(o.vk, formats::kMaxVerifyingKeyJsonBytes, "verification key"), o.vk, o.insecure_key);
  const std::vector<ff::Fr> inputs = formats::public_from_json(
      io::read_bounded_file(o.public_signals, formats::max_public_json_bytes(vk.ic.size() - 1),
                            "public.json for this key"),
      o.public_signals);
  const groth16::Proof proof = formats::proof_from_json(
      io::read_bounded_file(o.proof, formats::kMaxProofJsonBytes, "proof.json"), o.proof);
  if (inputs.size() + 1 != vk.ic.size()) {
    throw std::runtime_error(o.public_signals + " holds " + std::to_string(inputs.size()) +
                             " public signals, the verification key expects " + std::to_string(vk.ic.size() - 1));
  }
  if (!groth16::verify(groth16::PreparedVerifyingKey(vk, o.insecure_key), proof, inputs)) {
    std::cout << "INVALID: the proof does not verify against these public signals and key\n";
    throw CLI::RuntimeError(1);
  }
  std::cout << "OK\n";
}

}  // namespace

void register_groth16(CLI::App& app) {
  CLI::App* group = app.add_subcommand("groth16", "Groth16 with snarkjs files (circom circuits, BLS12-381)");
  group->require_subcommand(1);

  auto prove = std::make_shared<Groth16ProveOptions>();
  CLI::App* p = group->add_subcommand("prove", "Prove a circom witness with a snarkjs .zkey, writing snarkjs JSON");
  p->add_option("zkey", prove->key, "snarkjs .zkey (or a parameter file from `zkpipe zkey import`, with --r1cs)")
      ->required()
      ->check(CLI::ExistingFile);
  p->add_option("witness", prove->witness, "circom witness (.wtns)")->required()->check(CLI::ExistingFile);
  p->add_option("proof", prove->proof, "proof.json to write")->required()->check(output_file());
  p->add_option("public", prove->public_signals, "public.json to write")->required()->check(output_file());
  p->add_option("--r1cs", prove->r1cs, "the circuit's .r1cs: check the files match and the witness satisfies it")
      ->check(CLI::ExistingFile);
  p->add_flag("--check-subgroup", prove->check_subgroup,
              "also check that every key point is in its prime-order subgroup (slow; `zkey import` always does)");
  p->add_flag("--timings", prove->timings,
              "print the time of each step to stderr, and the partition's stages in the engine");
  add_engine_options(*p, prove->engine);
  add_backend_options(*p, prove->backend);
  add_devices_option(*p, prove->backend);
  add_insecure_key_flag(*p, prove->insecure_key);
  p->callback([prove] { run_prove(*prove); });

  auto verify = std::make_shared<Groth16VerifyOptions>();
  CLI::App* v = group->add_subcommand("verify", "Verify a snarkjs proof.json; prints OK and exits 0 if it verifies");
  v->add_option("verification_key", verify->vk, "verification_key.json")->required()->check(CLI::ExistingFile);
  v->add_option("public", verify->public_signals, "public.json")->required()->check(CLI::ExistingFile);
  v->add_option("proof", verify->proof, "proof.json")->required()->check(CLI::ExistingFile);
  add_insecure_key_flag(*v, verify->insecure_key);
  v->callback([verify] { run_verify(*verify); });
}

}  // namespace zkpipe::cli
