// zkpipe groth16 prove|verify: the snarkjs / rapidsnark command line, on BLS12-381.
//
//   zkpipe groth16 prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>
//   zkpipe groth16 verify <verification_key.json> <public.json> <proof.json>
//
// The files are snarkjs's, and so is the JSON zkpipe writes (snarkjs verifies it).
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "file_args.hpp"
#include "formats/format_error.hpp"
#include "io/atomic_file.hpp"
#include "io/bounded_read.hpp"
#include "io/file_mapping.hpp"
#include "formats/r1cs_file.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/snarkjs_witness.hpp"
#include "formats/wtns_file.hpp"
#include "formats/zkey_file.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/verifier.hpp"
#include "insecure_key.hpp"

namespace zkpipe::cli {

namespace {

struct Groth16ProveOptions {
  std::string key;
  std::string witness;
  std::string proof;
  std::string public_signals;
  std::string r1cs;
  bool check_subgroup = false;
  bool self_verify = true;
  bool timings = false;
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

// The key and the prover's witness, from a .zkey (its coefficient lists give a and b)
// or from a native parameter file imported from one (then the .r1cs gives them).
struct Job {
  groth16::ProvingKey key;
  groth16::PartitionWitness witness;
};

Job load_job(const Groth16ProveOptions& o, const std::vector<ff::Fr>& assignment) {
  std::optional<formats::R1csFile> r1cs;
  if (!o.r1cs.empty()) r1cs = formats::read_r1cs(o.r1cs);
  if (is_native_parameter_file(o.key)) {
    if (!r1cs) {
      throw std::runtime_error(o.key + " is a native parameter file: pass the circuit with --r1cs to prove with it");
    }
    Job job{groth16::load_parameter_file(o.key, {.insecure_key = o.insecure_key}), {}};
    if (job.key.h_query != groth16::HQuery::kSnarkjsOddCoset) {
      throw std::runtime_error(o.key + " was not imported from a snarkjs .zkey (zkpipe zkey import)");
    }
    job.witness = formats::r1cs_witness(*r1cs, job.key, assignment);
    return job;
  }
  formats::Zkey zkey = formats::read_zkey(o.key, {.check_subgroup = o.check_subgroup, .insecure_key = o.insecure_key});
  if (r1cs) {
    formats::check_same_circuit(*r1cs, o.r1cs, zkey.header, o.key);
    if (auto bad = r1cs->first_unsatisfied(assignment)) {
      throw std::runtime_error(o.witness + " does not satisfy constraint " + std::to_string(*bad) + " of " + o.r1cs);
    }
  }
  groth16::PartitionWitness witness = formats::zkey_witness(zkey, assignment);
  return {std::move(zkey.key), std::move(witness)};
}

void run_prove(const Groth16ProveOptions& o) {
  refuse_overwriting_inputs({o.key, o.witness, o.r1cs}, {o.proof, o.public_signals});
  Timer timer(o.timings);
  const std::vector<ff::Fr> assignment = formats::read_wtns(o.witness);
  timer.lap("read_wtns");
  Job job = load_job(o, assignment);
  timer.lap("read_key");
  const std::vector<ff::Fr> inputs = job.witness.assignment.inputs;
  const groth16::OneShotProof one_shot =
      groth16::prove_on_cpu(std::move(job.witness), job.key, groth16::Blinding::random());
  if (o.timings) {
    for (const groth16::StageTime& t : one_shot.timings) std::fprintf(stderr, "  %-8s %8.3f s\n", t.stage.c_str(), t.seconds);
  }
  timer.lap("prove");
  const groth16::Proof& proof = one_shot.proof;
  const std::span<const ff::Fr> public_signals(inputs.data() + 1, inputs.size() - 1);
  if (o.self_verify) {
    if (!groth16::verify(groth16::PreparedVerifyingKey(job.key.vk, o.insecure_key), proof, public_signals)) {
      throw std::runtime_error("the proof does not verify, nothing written: " + o.witness +
                               " does not satisfy the circuit of " + o.key + ", or one of the two is corrupt");
    }
    timer.lap("verify");
  }
  io::write_file_atomically(o.proof, formats::proof_to_json(proof));
  io::write_file_atomically(o.public_signals, formats::public_to_json(public_signals));
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
  p->add_flag("--verify,!--no-verify", prove->self_verify,
              "verify the proof before writing it (the default; --no-verify skips it, see --timings for its cost)");
  p->add_flag("--timings", prove->timings, "print the time of each step to stderr");
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
