// Proving one request on an engine of its own: what `zkpipe prove`, `zkpipe filecoin
// c2` and `zkpipe groth16 prove` each do for the request they read. The key is made
// resident, the request built on it, every partition's proof checked before anything
// is returned (a proof that does not verify is never handed back: hand_off.hpp, as
// `zkpipe bench` and the daemon's queues hand theirs over), the engine drained, and
// the trace recorded when asked. A command keeps only what is its own: reading its
// inputs, the message for its failure, writing its files.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "groth16/keys.hpp"
#include "groth16/prover.hpp"
#include "proving/proof_request.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/partitioned_circuit.hpp"

namespace zkpipe::proving {

struct EngineRun {
  engine::EngineConfig engine;  // workers, ledger and budget_bytes (resolve_budget)
  std::vector<std::shared_ptr<engine::EngineListener>> listeners;  // progress lines
  bool verify = true;
  bool trace = false;  // record the run as a Chrome trace
};

struct ProofInputs {
  std::shared_ptr<const groth16::ProvingKey> key;
  std::shared_ptr<const r1cs::CompiledR1cs> evaluator;  // null: synthesis makes a, b, c
  std::size_t companion_bytes = 0;                      // Engine::make_resident's
  groth16::InsecureKey insecure = groth16::InsecureKey::kRefuse;
  // The request on the resident key (preset_request, circom_request).
  std::function<PreparedRequest(const RequestBasis&)> request;
  // Called once the proofs are made, and when the request fails before the failure
  // is reported: throws when a file the key is mapped from was damaged meanwhile, the
  // truer reason for any failure (io::FileMapping::expect_undamaged). Optional.
  std::function<void()> expect_inputs_undamaged;
};

// Every partition of a preset circuit instance (preset_request) on `key`.
ProofInputs preset_inputs(std::shared_ptr<const groth16::ProvingKey> key,
                          std::shared_ptr<const r1cs::CompiledR1cs> evaluator,
                          std::shared_ptr<const r1cs::PartitionedCircuit> circuit);

struct EngineRunResult {
  engine::ProofResult result;
  // A circom job's public signals (read with its witness); null for a preset instance.
  std::shared_ptr<std::vector<ff::Fr>> public_signals;
  std::vector<engine::DeviceStatus> devices;  // at the end of the run
  std::string chrome_trace;                   // empty unless EngineRun::trace
};

// A partition's proof did not verify: nothing may be written.
class ProofNotVerified : public std::runtime_error {
 public:
  ProofNotVerified(std::size_t partition, std::size_t partitions);
  std::size_t partition() const { return partition_; }

 private:
  std::size_t partition_;
};

// Throws ProofNotVerified, engine::RequestFailed for any other failure of the request,
// and what the engine, make_resident and the request builder throw.
EngineRunResult prove_on_engine(const std::vector<std::shared_ptr<groth16::ProverBackend>>& backends,
                                const EngineRun& run, const ProofInputs& inputs);

}  // namespace zkpipe::proving
