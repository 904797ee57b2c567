// One way to turn a workload into the engine's proof request, for `zkpipe prove`,
// `zkpipe groth16 prove`, `zkpipe bench` and the daemon alike: a preset circuit
// instance (each partition synthesized, through the key's evaluator when it has one)
// or a circom job (its .wtns read and mapped to a, b, c by the .zkey's coefficient
// lists or the .r1cs), with the check each partition's proof must pass.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "engine/request.hpp"
#include "ff/fr.hpp"
#include "groth16/footprint.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"
#include "proving/circom_instance.hpp"
#include "r1cs/partitioned_circuit.hpp"

namespace zkpipe::proving {

// A partition's working set on `backend`: with an evaluator, a, b, c are computed
// where the backend says (deferred), else in synthesis.
groth16::PartitionFootprint partition_footprint(const groth16::ProvingKey& key, bool through_evaluator,
                                                const groth16::ProverBackend& backend);

// What every request on one resident key shares.
struct RequestBasis {
  std::shared_ptr<const engine::ResidentParameters> parameters;
  groth16::PartitionFootprint footprint;
  std::shared_ptr<const groth16::PreparedVerifyingKey> pvk;
};

// The footprint on the engine's backend (engine devices are alike: one backend kind)
// and the key's prepared verifying key. Throws groth16's verifying-key error for an
// insecure key unless `insecure` allows it.
RequestBasis request_basis(std::shared_ptr<const engine::ResidentParameters> parameters,
                           const groth16::ProverBackend& backend,
                           groth16::InsecureKey insecure = groth16::InsecureKey::kRefuse);

// Whether partition p's proof verifies against p's public inputs.
using PartitionCheck = std::function<bool(std::size_t partition, const groth16::Proof& proof)>;

struct PreparedRequest {
  // parameters, partitions, footprint, synthesize and verify set; the label names the
  // circuit; priority, blinding and on_complete are the caller's.
  engine::ProofRequest request;
  PartitionCheck check;
  // A circom job's public signals, filled when synthesis reads the witness; null for
  // a preset instance (its circuit gives them).
  std::shared_ptr<std::vector<ff::Fr>> public_signals;
};

// Every partition of `circuit`; verify checks them all in one batch (check names one).
PreparedRequest preset_request(const RequestBasis& basis, std::shared_ptr<const r1cs::PartitionedCircuit> circuit);

// One partition; synthesis throws std::runtime_error for a witness that breaks a
// constraint of the instance's .r1cs, std::invalid_argument for one of another
// circuit, formats::FormatError for a malformed .wtns. Throws std::invalid_argument
// for an instance without a witness, or with neither coefficient lists nor .r1cs.
PreparedRequest circom_request(const RequestBasis& basis, CircomInstance instance);

}  // namespace zkpipe::proving
