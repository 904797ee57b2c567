#include <iostream>
#include <memory>
#include <vector>

#include "commands.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/verifier.hpp"
#include "insecure_key.hpp"
#include "io/bounded_read.hpp"
#include "workloads.hpp"

namespace zkpipe::cli {

namespace {

struct VerifyOptions {
  WorkloadSpec workload;
  std::string key;
  std::string proof;
  groth16::InsecureKey insecure_key = groth16::InsecureKey::kRefuse;
};

void run_verify(const VerifyOptions& o) {
  auto circuit = make_circuit(o.workload);
  // Read before the key is loaded: a wrong file fails fast. Bounded by the expected
  // size, so that /dev/zero or a huge file is refused, not read into memory.
  const std::string bytes = io::read_bounded_file(
      o.proof, o.workload.partitions * groth16::Proof::kEncodedSize,
      "proof file of " + std::to_string(o.workload.partitions) + " partitions");
  groth16::ProvingKey key = groth16::load_parameter_file(o.key, {.insecure_key = o.insecure_key});
  groth16::PreparedVerifyingKey pvk(key.vk, o.insecure_key);
  std::vector<groth16::Proof> proofs = groth16::decode_proofs(
      std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
  if (proofs.size() != o.workload.partitions) {
    throw std::runtime_error(o.proof + " holds " + std::to_string(proofs.size()) + " partition proofs, expected " +
                             std::to_string(o.workload.partitions));
  }
  std::size_t failed = 0;
  for (std::size_t p = 0; p < proofs.size(); ++p) {
    bool ok = groth16::verify(pvk, proofs[p], circuit->public_inputs(p));
    if (!ok) {
      std::cout << "partition " << p << ": INVALID\n";
      ++failed;
    }
  }
  if (failed != 0) {
    std::cout << failed << " of " << proofs.size() << " partitions failed to verify\n";
    throw CLI::RuntimeError(1);
  }
  std::cout << "OK: " << proofs.size() << " partitions verified\n";
}

}  // namespace

void register_verify(CLI::App& app) {
  auto opts = std::make_shared<VerifyOptions>();
  CLI::App* cmd = app.add_subcommand("verify", "Verify a multi-partition proof file; exit 0 only if all verify");
  add_circuit_options(*cmd, opts->workload);
  add_instance_options(*cmd, opts->workload);
  cmd->add_option("--key", opts->key, "Parameter file from `zkpipe setup`")->required();
  cmd->add_option("--proof", opts->proof, "Proof file from `zkpipe prove`")->required();
  add_insecure_key_flag(*cmd, opts->insecure_key);
  cmd->callback([opts] { run_verify(*opts); });
}

}  // namespace zkpipe::cli
