// Engine requests built from jobs: a SubmitProofRequest (a PoRep-like instance, a
// circom job, a Filecoin PoRep, PoSt partition or SnapDeals update) becomes what the
// engine proves — its parameters leased from the residency manager, the synthesis of
// each partition, and a check that every proof verifies before it is journaled or
// recorded, as `zkpipe prove` does. Both job queues (the local journal's and the
// cluster's) prove through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.hpp"
#include "io/read_only_file.hpp"
#include "service/path_policy.hpp"
#include "service/residency.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service {

// The files a job named, as found when it was submitted: it is proved with these or
// fails (PathPolicy::reopen), whatever the paths name by the time it starts. None for
// a job read back from a queue, whose paths are checked again when it starts.
struct CheckedFiles {
  std::optional<io::FileIdentity> key;  // the parameter file, .zkey or .params
  std::optional<io::FileIdentity> witness;
};

// A job ready for the engine: its parameters held and its request built.
struct PreparedJob {
  ParameterResidency::Lease lease;
  // parameters, partitions, footprint, and synthesize(p) building partition p of
  // the instance; the caller adds the label, priority, verify and on_complete.
  engine::ProofRequest request;
  // Whether partition p's proof verifies.
  std::function<bool(std::size_t partition, const groth16::Proof&)> check;
  // Circom jobs: the witness's public signals, set by synthesis (public.json); null otherwise.
  std::shared_ptr<std::vector<ff::Fr>> public_signals;
};

// zkpipe.v1.Priority as the engine orders it (critical 0 … low 3).
engine::Priority engine_priority(int priority);
std::uint32_t partitions_of(const v1::SubmitProofRequest& request);
std::shared_ptr<const r1cs::PartitionedCircuit> porep_circuit(const v1::PorepInstance& porep);
// The circuit's name as PorepLikeCircuit::name() gives it, without building the circuit.
std::string porep_circuit_name(const v1::PorepInstance& porep);

class JobRequestBuilder {
 public:
  // `sizing`: the backend a partition's working set (its footprint) is sized for.
  // All three outlive the builder.
  JobRequestBuilder(const PathPolicy& paths, ParameterResidency& residency, const groth16::ProverBackend& sizing);

  // The residency entry a job needs ("file\ncircuit"), and whether it is loaded;
  // {"", true} for a path that is refused (prepare() then fails at once).
  std::pair<std::string, bool> parameters_of(const v1::SubmitProofRequest& request) const;
  // Leases the parameters (loading them when they are not resident) and builds the
  // request. Throws ServiceError for a path refused or changed since `checked`, and
  // what the residency manager throws (ParametersDoNotFit, a bad file).
  PreparedJob prepare(const v1::SubmitProofRequest& request, const CheckedFiles& checked) const;
  // Whether a whole job's proofs, one per partition in order, verify against its
  // parameters (leased for the check); `public_json`: a circom job's public.json.
  // Throws what prepare() throws for the parameters, and FormatError for a bad public.json.
  bool verifies(const v1::SubmitProofRequest& request, std::span<const groth16::Proof> proofs,
                const std::string& public_json) const;

 private:
  PreparedJob prepare_porep(const v1::PorepInstance& porep, const CheckedFiles& checked) const;
  PreparedJob prepare_circom(const v1::CircomJob& circom, const CheckedFiles& checked) const;
  PreparedJob prepare_filecoin(const v1::FilecoinPorepJob& job, const CheckedFiles& checked) const;
  // A PoSt or SnapDeals job: `circuit` read from its vanilla proofs.
  PreparedJob prepare_vanilla(std::shared_ptr<const r1cs::PartitionedCircuit> circuit,
                              const std::string& parameter_file, std::string_view field,
                              const CheckedFiles& checked) const;

  const PathPolicy& paths_;
  ParameterResidency& residency_;
  const groth16::ProverBackend& sizing_;
};

}  // namespace zkpipe::service
