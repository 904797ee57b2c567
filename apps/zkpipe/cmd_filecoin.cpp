// zkpipe filecoin setup | seal | c2 | verify: Filecoin's PoRep commit phase 2 end to
// end on one machine — a test-only key for a seal proof's circuit in bellperson's
// formats, a small sector sealed in memory into the C1 output lotus and curio hand to
// a C2 prover, that output proved through the engine (the bytes filecoin-proofs'
// seal_commit_phase2 returns), and the proof checked as verify_seal checks it.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "backend.hpp"
#include "circuits/filecoin/api/c1_circuit.hpp"
#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/api/seal_commit1.hpp"
#include "circuits/filecoin/api/sector_values.hpp"
#include "circuits/filecoin/core/fr32.hpp"
#include "circuits/filecoin/core/hex_bytes.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "commands.hpp"
#include "device_summary.hpp"
#include "engine/engine.hpp"
#include "engine_options.hpp"
#include "file_args.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/bellperson_proof.hpp"
#include "formats/bellperson_vk.hpp"
#include "hex_args.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "io/atomic_file.hpp"
#include "io/bounded_read.hpp"
#include "memory/buffer_ledger.hpp"
#include "memory/process_memory.hpp"
#include "partition_lines.hpp"
#include "progress.hpp"
#include "proving/evaluator_cache.hpp"
#include "proving/filecoin_porep.hpp"
#include "proving/proof_request.hpp"
#include "proving/prove_on_engine.hpp"
#include "seal_proof_args.hpp"
#include "setup_run.hpp"
#include "workloads.hpp"

namespace zkpipe::cli {

// Its own namespace: its option structs and runners share names with the setup and
// verify commands' (built into one translation unit with them, ZKPIPE_UNITY).
namespace filecoin_commands {
namespace {

namespace fs = std::filesystem;
using Bytes32 = std::array<std::uint8_t, 32>;

// A .vk holds 6 fixed points and one IC point per public input (~40 for a partition).
constexpr std::size_t kMaxVkBytes = std::size_t{1} << 20;
// Sectors from 32 GiB on cannot be sealed in memory (their labels alone are 11 × the sector).
constexpr std::uint64_t kLargestSealedInMemory = std::uint64_t{1} << 30;

// 64 hex digits, the 32 bytes in order (as sector.json writes them).
Bytes32 parse_hex32(const std::string& text, const std::string& option) {
  const std::vector<std::uint8_t> bytes = hex_option(text, 32, option);
  Bytes32 out{};
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

Bytes32 random_bytes(std::mt19937_64& rng) {
  Bytes32 out{};
  for (auto& b : out) b = static_cast<std::uint8_t>(rng());
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

constexpr const char* kInsecure =
    "TEST-ONLY parameters: the toxic waste derives from --seed and is known to anyone who knows it; proofs made "
    "with this key prove nothing. Filecoin's real parameters come from its trusted setup ceremony.";

// ---- setup -----------------------------------------------------------------------

struct SetupOptions {
  SealProofChoice proof;
  std::string params;
  std::string vk;
  SetupRequest request;
};

void run_setup(const SetupOptions& o) {
  refuse_overwriting_inputs({}, {o.params, o.vk});
  const filecoin::core::SealProof& proof = resolve_seal_proof(o.proof);
  const auto t0 = std::chrono::steady_clock::now();
  std::cerr << "setup: " << proof.name << " (" << describe_sector_size(proof.sector_bytes) << ", "
            << proof.partitions() << " partitions of " << proof.challenges_per_partition() << " challenges)\n";
  const filecoin::porep::StackedCircuit circuit = filecoin::api::stacked_circuit_shape(proof);
  check_setup_fits(o.request, circuit, o.params);
  const SetUpParameters parameters = set_up_parameters(o.request, circuit);
  for (const std::string& file : {o.params, o.vk}) {
    const fs::path parent = fs::path(file).parent_path();
    if (!parent.empty()) fs::create_directories(parent);
  }
  formats::write_bellperson_params(o.params, *parameters.key);
  formats::write_bellperson_vk(o.vk, parameters.key->vk);
  cache_evaluator(o.params, parameters);
  std::cerr << "setup done in " << format_seconds(seconds_since(t0)) << "; wrote " << o.params << ", " << o.vk
            << " and the evaluator " << proving::evaluator_path(o.params).string() << "\n"
            << "WARNING: " << kInsecure << "\n";
}

void register_setup_command(CLI::App& filecoin) {
  auto opts = std::make_shared<SetupOptions>();
  CLI::App* cmd = filecoin.add_subcommand(
      "setup",
      "Groth16 parameters for a seal proof's circuit in bellperson's .params/.vk (INSECURE, test-only: the toxic "
      "waste derives from --seed)");
  add_seal_proof_options(*cmd, opts->proof);
  cmd->add_option("--params", opts->params, "bellperson .params file to write (its evaluator is cached beside it)")
      ->required()
      ->check(output_file());
  cmd->add_option("--vk", opts->vk, "bellperson .vk file to write")->required()->check(output_file());
  add_backend_options(*cmd, opts->request.backend);
  cmd->add_option("--seed", opts->request.setup_seed, "Seed the toxic waste derives from (NOT secure)");
  cmd->add_flag("--quiet", opts->request.quiet, "No progress bar");
  cmd->callback([opts] { run_setup(*opts); });
}

// ---- seal ------------------------------------------------------------------------

struct SealOptions {
  SealProofChoice proof;
  std::string data;
  bool random_data = false;
  std::uint64_t seed = 1;
  std::string prover_id;
  std::uint64_t sector_id = 1;
  std::string ticket;
  std::string seed_randomness;
  std::string out_dir;
};

// The sector's nodes: the file fr32-padded and zero-filled to the sector, or random
// canonical nodes.
std::vector<filecoin::core::NodeBytes> sector_data(const SealOptions& o, const filecoin::core::SealProof& proof,
                                                   std::mt19937_64& rng) {
  const std::uint64_t nodes = proof.sector_bytes / filecoin::core::kNodeBytes;
  std::vector<filecoin::core::NodeBytes> data(nodes);
  if (o.random_data) {
    for (filecoin::core::NodeBytes& node : data) node = filecoin::hashers::fr_to_domain(ff::Fr::random(rng));
    return data;
  }
  const std::uint64_t capacity = filecoin::core::fr32::unpadded_size(proof.sector_bytes);
  const std::string raw = io::read_bounded_file(
      o.data, capacity, "a " + describe_sector_size(proof.sector_bytes) + " sector's data (" + std::to_string(capacity) +
                            " bytes before fr32 padding)");
  const std::vector<std::uint8_t> padded =
      filecoin::core::fr32::pad(std::span(reinterpret_cast<const std::uint8_t*>(raw.data()), raw.size()));
  for (std::size_t i = 0; i < padded.size(); ++i) {
    data[i / filecoin::core::kNodeBytes][i % filecoin::core::kNodeBytes] = padded[i];
  }
  return data;
}

void run_seal(const SealOptions& o) {
  const filecoin::core::SealProof& proof = resolve_seal_proof(o.proof);
  if (proof.sector_bytes > kLargestSealedInMemory) {
    throw std::invalid_argument(
        std::string(proof.name) + ": a " + describe_sector_size(proof.sector_bytes) +
        " sector is too large to seal in memory; for a C1 output of this size use the synthetic one "
        "(zkpipe bench --circuit filecoin-porep)");
  }
  const fs::path dir(o.out_dir);
  const fs::path c1_path = dir / "c1.json";
  const fs::path sector_path = dir / "sector.json";
  refuse_overwriting_inputs({o.data}, {c1_path.string(), sector_path.string()});
  std::mt19937_64 rng(o.seed);
  filecoin::api::SectorValues values;
  values.registered_proof = &proof;
  values.prover_id = o.prover_id.empty() ? random_bytes(rng) : parse_hex32(o.prover_id, "--prover-id");
  values.sector_id = o.sector_id;
  values.ticket = o.ticket.empty() ? random_bytes(rng) : parse_hex32(o.ticket, "--ticket");
  values.seed = o.seed_randomness.empty() ? random_bytes(rng) : parse_hex32(o.seed_randomness, "--seed-randomness");
  const std::vector<filecoin::core::NodeBytes> data = sector_data(o, proof, rng);

  const auto t0 = std::chrono::steady_clock::now();
  const filecoin::api::SealedSector sealed = filecoin::api::seal_sector(values, data);
  const filecoin::api::C1Output c1 = filecoin::api::seal_commit_phase1(sealed);
  const double seconds = seconds_since(t0);
  fs::create_directories(dir);
  io::write_file_atomically(c1_path, filecoin::api::c1_output_to_json(c1));
  io::write_file_atomically(sector_path, filecoin::api::sector_values_to_json(sealed.values));
  std::cerr << "sealed a sector of " << describe_sector_size(proof.sector_bytes) << " (" << proof.name << ") in "
            << format_seconds(seconds) << "; wrote " << c1_path.string() << " and " << sector_path.string() << "\n";
  std::cout << "comm_d " << filecoin::core::hex_of(sealed.values.comm_d) << "\ncomm_r "
            << filecoin::core::hex_of(sealed.values.comm_r) << "\n";
}

void register_seal_command(CLI::App& filecoin) {
  auto opts = std::make_shared<SealOptions>();
  CLI::App* cmd = filecoin.add_subcommand(
      "seal", "Seal a small sector (2KiB, 8MiB) in memory: c1.json (the C1 output) and sector.json");
  add_seal_proof_options(*cmd, opts->proof);
  CLI::Option* data =
      cmd->add_option("--data", opts->data, "Raw (unpadded) sector data; fr32-padded and zero-filled to the sector");
  CLI::Option* random = cmd->add_flag("--random-data", opts->random_data, "Random canonical nodes (from --seed)");
  data->excludes(random);
  cmd->add_option("--seed", opts->seed, "Seed of the random data and of the values not given")->capture_default_str();
  cmd->add_option("--prover-id", opts->prover_id, "32 bytes, hex (default: from --seed)");
  cmd->add_option("--sector-id", opts->sector_id, "Sector number")->capture_default_str();
  cmd->add_option("--ticket", opts->ticket, "The sealing ticket, 32 bytes hex (default: from --seed)");
  cmd->add_option("--seed-randomness", opts->seed_randomness,
                  "The interactive seed the challenges derive from, 32 bytes hex (default: from --seed)");
  cmd->add_option("--out-dir", opts->out_dir, "Directory for c1.json and sector.json")->required();
  cmd->callback([opts] {
    if (opts->data.empty() && !opts->random_data) throw std::invalid_argument("give --data FILE or --random-data");
    run_seal(*opts);
  });
}

// ---- c2 --------------------------------------------------------------------------

struct C2Options {
  std::string c1;
  std::string sector;
  std::string params;
  std::string key_cache;
  bool no_key_cache = false;
  std::string out;
  BackendOptions backend;
  EngineOptions engine;
  bool skip_subgroup_check = false;
  bool quiet = false;
};

// Before the key is read: the evaluator, the key when it is decoded into host memory
// (no key cache; a cached key is mapped from its file) and one partition's working set
// against what this process may take, from the circuit's counted shape.
void refuse_what_cannot_fit(const r1cs::PartitionedCircuit& circuit, bool key_decoded) {
  const groth16::CircuitShape shape = groth16::count_shape(circuit);
  const KeyFootprint f = KeyFootprint::of(shape);
  const std::size_t partition = groth16::PartitionFootprint::of(shape).total();
  const std::size_t need = f.evaluator + (key_decoded ? f.key : 0) + partition;
  const memory::UsableMemory available = memory::usable_memory();
  if (available.bytes == 0 || need <= available.bytes) return;
  auto gib = [](std::size_t bytes) { return format_bytes(static_cast<double>(bytes)); };
  throw std::invalid_argument("proving this C1 output needs about " + gib(need) + " of host memory (the evaluator " +
                              gib(f.evaluator) +
                              (key_decoded ? ", the key decoded into host memory " + gib(f.key) + " (no key cache)"
                                           : std::string()) +
                              ", a partition's working set " + gib(partition) + "), " + gib(available.bytes) +
                              " is available (" + available.bound + ")");
}

void run_c2(const C2Options& o) {
  const std::string key_cache =
      o.no_key_cache ? std::string()
                     : !o.key_cache.empty() ? o.key_cache
                                            : proving::default_key_cache(o.params).string();
  refuse_overwriting_inputs({o.c1, o.sector, o.params}, {o.out, o.engine.trace_path, key_cache});
  // Every input checked before any proving: the C1 output against the sector, then
  // the parameters against the seal proof's circuit.
  auto t = std::chrono::steady_clock::now();
  proving::FilecoinPorepInstance instance = proving::read_filecoin_porep(o.c1, o.sector);
  const filecoin::core::SealProof& proof = *instance.sector.registered_proof;
  const std::shared_ptr<const filecoin::porep::StackedCircuit> circuit = instance.circuit;
  if (!o.quiet) {
    std::cerr << "C1 output of " << proof.name << ": " << circuit->partitions() << " partitions, checked in "
              << format_seconds(seconds_since(t)) << "\n";
  }
  refuse_what_cannot_fit(*circuit, key_cache.empty());
  memory::BufferLedger& ledger = memory::BufferLedger::process();
  const std::vector<std::shared_ptr<groth16::ProverBackend>> backends = make_backends(o.backend, ledger);
  if (!o.quiet) std::cerr << "proving on the " << describe_backend(o.backend) << "\n";
  t = std::chrono::steady_clock::now();
  const formats::BellpersonReadOptions read_options{.check_subgroup = !o.skip_subgroup_check};
  std::shared_ptr<const groth16::ProvingKey> key;
  if (key_cache.empty()) {
    key = std::make_shared<const groth16::ProvingKey>(proving::read_filecoin_porep_key(o.params, proof, read_options));
    if (!o.quiet) std::cerr << "read " << o.params << " in " << format_seconds(seconds_since(t)) << "\n";
  } else {
    proving::CachedBellpersonKey cached;
    {
      ProgressBar bar(!o.quiet && isatty(STDERR_FILENO));
      cached = proving::load_filecoin_porep_key(o.params, proof, key_cache, read_options,
                                                [&](std::uint64_t done, std::uint64_t total) {
                                                  bar.update("converting " + o.params, done, total);
                                                });
    }
    if (!cached.not_cached.empty()) {
      std::cerr << "zkpipe: warning: the key could not be cached (" << cached.not_cached
                << "); it was decoded into host memory\n";
    }
    if (!cached.passed_over.empty()) {
      std::cerr << "zkpipe: warning: not using the key cache " << key_cache << ": " << cached.passed_over
                << "\n";
    }
    if (!o.quiet) {
      std::cerr << (!cached.cache_mapping ? "read " + o.params + " in "
                    : cached.converted ? "converted " + o.params + " into " + key_cache + " (mapped from now on) in "
                                     : "mapped the key from " + key_cache + " (converted from " + o.params + ") in ")
                << format_seconds(seconds_since(t)) << "\n";
    }
    key = std::make_shared<const groth16::ProvingKey>(std::move(cached.key));
  }
  check_device_memory(o.backend, *key);
  const auto evaluator = evaluator_for(*circuit, *key, o.params, o.quiet);

  proving::EngineRun run =
      engine_run(o.engine, circuit->partitions(), *key, evaluator.get(), 0, *backends.front(), ledger);
  if (!o.quiet) run.listeners.push_back(std::make_shared<PartitionLines>(backends, backends.size() > 1));
  const proving::ProofInputs inputs = proving::preset_inputs(key, evaluator, circuit);
  proving::EngineRunResult proved;
  try {
    proved = proving::prove_on_engine(backends, run, inputs);
  } catch (const proving::ProofNotVerified& e) {
    throw std::runtime_error(std::string(e.what()) + ", nothing written: " + o.params + " or the backend is faulty");
  }
  const engine::ProofResult& result = proved.result;
  if (!o.quiet && backends.size() > 1) print_device_summary(std::cerr, proved.devices, result.seconds);

  const std::vector<std::uint8_t> bytes = formats::encode_bellperson_proofs(result.proofs);
  io::write_file_atomically(o.out, bytes);
  if (run.trace) io::write_file_atomically(o.engine.trace_path, proved.chrome_trace);
  std::cerr << "wrote " << bytes.size() << " bytes (" << result.proofs.size() << " partition proofs"
            << (result.verified ? ", each verified" : "") << ") to " << o.out << " in "
            << format_seconds(result.seconds) << "\n";
}

void register_c2_command(CLI::App& filecoin) {
  auto opts = std::make_shared<C2Options>();
  CLI::App* cmd = filecoin.add_subcommand(
      "c2", "Commit phase 2: prove a C1 output through the engine (bellperson's proof bytes, 192 per partition)");
  cmd->add_option("--c1", opts->c1, "C1 output: SealCommitPhase1Output JSON, or lotus-bench's Commit2In")->required();
  cmd->add_option("--sector", opts->sector, "sector.json (from `zkpipe filecoin seal`)")->required();
  cmd->add_option("--params", opts->params, "The seal proof's bellperson .params")->required();
  cmd->add_option("--out", opts->out, "Proof file to write")->required()->check(output_file());
  add_engine_options(*cmd, opts->engine);
  add_backend_options(*cmd, opts->backend);
  add_devices_option(*cmd, opts->backend);
  cmd->add_option("--key-cache", opts->key_cache,
                  "zkpipe's parameter file converted from --params once and memory-mapped at every later run, so the "
                  "key is never whole in host memory (default: beside --params, its name with .zkp appended)")
      ->check(output_file());
  cmd->add_flag("--no-key-cache", opts->no_key_cache,
                "Decode the .params into host memory at every run instead (the whole key: ~47 GiB at 32 GiB)")
      ->excludes(cmd->get_option("--key-cache"));
  cmd->add_flag("--no-subgroup-check", opts->skip_subgroup_check,
                "Read the .params points without checking that they lie in the subgroup (most of the read's time), "
                "as filecoin-proofs reads its parameters; the verifying key is checked, and every proof is verified "
                "before it is written, either way");
  cmd->add_flag("--quiet", opts->quiet, "No per-partition lines");
  cmd->callback([opts] {
    opts->backend = resolve_backend(opts->backend);  // once: the backends and the summary see one choice
    run_c2(*opts);
  });
}

// ---- verify ----------------------------------------------------------------------

struct VerifyOptions {
  std::string vk;
  std::string sector;
  std::string proof;
};

void run_verify(const VerifyOptions& o) {
  constexpr std::size_t kMaxSectorBytes = std::size_t{64} << 10;
  const filecoin::api::SectorValues sector =
      filecoin::api::parse_sector_values(io::read_bounded_file(o.sector, kMaxSectorBytes, "sector.json"), o.sector);
  const filecoin::core::SealProof& seal = *sector.registered_proof;
  const std::string vk_bytes = io::read_bounded_file(o.vk, kMaxVkBytes, "verifying key");
  const groth16::VerifyingKey vk = formats::decode_bellperson_vk(
      std::span(reinterpret_cast<const std::uint8_t*>(vk_bytes.data()), vk_bytes.size()), o.vk);
  const std::string proof_bytes = io::read_bounded_file(
      o.proof, seal.partitions() * groth16::Proof::kEncodedSize,
      std::string(seal.name) + " proof of " + std::to_string(seal.partitions()) + " partitions");
  const std::vector<groth16::Proof> proofs = formats::decode_bellperson_proofs(
      std::span(reinterpret_cast<const std::uint8_t*>(proof_bytes.data()), proof_bytes.size()), o.proof,
      seal.partitions());
  const std::vector<std::vector<ff::Fr>> inputs = proving::filecoin_porep_public_inputs(sector);
  if (vk.ic.size() != inputs.front().size() + 1) {
    throw std::invalid_argument(o.vk + " is not " + std::string(seal.name) + "'s verifying key: it has " +
                                std::to_string(vk.ic.size()) + " IC points, the circuit needs " +
                                std::to_string(inputs.front().size() + 1));
  }
  const groth16::PreparedVerifyingKey pvk(vk);
  bool valid = true;
  for (std::size_t p = 0; p < proofs.size(); ++p) {
    if (!groth16::verify(pvk, proofs[p], inputs[p])) {
      std::cout << "invalid: partition " << p << "\n";
      valid = false;
    }
  }
  if (!valid) throw CLI::RuntimeError(1);
  std::cout << "valid\n";
}

void register_verify_command(CLI::App& filecoin) {
  auto opts = std::make_shared<VerifyOptions>();
  CLI::App* cmd = filecoin.add_subcommand(
      "verify", "Verify a seal proof against the sector's values (as verify_seal): exit 0 valid, 1 invalid");
  cmd->add_option("--vk", opts->vk, "The seal proof's bellperson .vk")->required();
  cmd->add_option("--sector", opts->sector, "sector.json")->required();
  cmd->add_option("--proof", opts->proof, "Proof file from `zkpipe filecoin c2`")->required();
  cmd->callback([opts] { run_verify(*opts); });
}

}  // namespace
}  // namespace filecoin_commands

void register_filecoin(CLI::App& app) {
  CLI::App* filecoin =
      app.add_subcommand("filecoin", "Filecoin: PoRep setup, seal (C1), c2, verify; vanilla PoSt / SnapDeals proofs");
  filecoin->require_subcommand(1);
  filecoin_commands::register_setup_command(*filecoin);
  filecoin_commands::register_seal_command(*filecoin);
  filecoin_commands::register_c2_command(*filecoin);
  filecoin_commands::register_verify_command(*filecoin);
  register_filecoin_vanilla(*filecoin);
}

}  // namespace zkpipe::cli
