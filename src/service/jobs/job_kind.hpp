// A job's kind is its SubmitProofRequest's instance: a PoRep-like preset, a circom
// proof, a Filecoin PoRep (C2), PoSt partition or SnapDeals update. Each kind
// implements JobKind once, in its own file (porep_like_job, circom_job,
// filecoin_porep_job, filecoin_post_job, filecoin_update_job): how many partitions it
// has, what is checked at submit, the residency entry of its parameters, the engine
// request built from it, the check of a finished job's proofs, and how PreloadParams
// loads its parameters ahead of a job. The service, both job queues and the cluster
// worker go through job_kind(request) or preload_kind(circuit) and look at no instance
// themselves; those two are the only places that tell the kinds apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.hpp"
#include "io/read_only_file.hpp"
#include "proving/proof_request.hpp"
#include "r1cs/partitioned_circuit.hpp"
#include "service/config/path_policy.hpp"
#include "service/residency/residency.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service::jobs {

// What a kind works with; every one outlives the calls.
struct JobContext {
  const config::PathPolicy& paths;
  residency::ParameterResidency& residency;
  // The backend a partition's working set (its footprint) is sized for.
  const groth16::ProverBackend& sizing;
};

// What submit found. The files the job named, as opened then: it is proved with
// these or fails (PathPolicy::reopen), whatever the paths name by the time it starts.
// The circuit its documents (a C1 output, vanilla proofs) were read into, kept typed
// until the engine proves it, so that they are parsed once. All empty for a job read
// back from a queue: its paths are checked and its documents read when it starts.
struct CheckedJob {
  std::optional<io::FileIdentity> key;  // the parameter file, .zkey or .params
  std::optional<io::FileIdentity> witness;
  std::shared_ptr<const r1cs::PartitionedCircuit> circuit;
};

// A job ready for the engine: its parameters held and its request built on them
// (a circom job's public signals are set by its synthesis: public.json). The queues
// hand `request` to the engine through proving::hand_off, every proof checked.
struct PreparedJob {
  residency::ParameterResidency::Lease lease;
  proving::PreparedRequest request;
};

// The residency entry a job's parameters are held under.
struct ParameterEntry {
  std::filesystem::path file;
  std::string circuit;
};

// What PreloadParams made resident: the lease (the caller releases it once it has
// answered) and the entry the parameters are listed under.
struct Preloaded {
  residency::ParameterResidency::Lease lease;
  ParameterEntry entry;
};

class JobKind {
 public:
  virtual ~JobKind() = default;

  // The instance's field in SubmitProofRequest: "porep", "circom", "filecoin_porep", …
  virtual std::string_view name() const = 0;
  // Its partitions; 0 where the request cannot tell (only a damaged journal holds
  // such a job: it is refused at submit). Never throws: asked while answering.
  virtual std::uint32_t partitions(const v1::SubmitProofRequest& request) const = 0;
  // Everything the request can be wrong about, before anything is queued: paths
  // confined and opened, documents read, the key's shape. `read`: the circuit a front
  // end has already read the request's documents into (cuzk's C1 output), or null.
  // Throws ServiceError naming the request's field.
  virtual CheckedJob validate(const v1::SubmitProofRequest& request, std::shared_ptr<const r1cs::PartitionedCircuit> read,
                              const JobContext& context) const = 0;
  // Throws ServiceError for a path that is refused.
  virtual ParameterEntry parameters(const v1::SubmitProofRequest& request, const config::PathPolicy& paths) const = 0;
  // Leases the parameters (loading them when they are not resident) and builds the
  // request, from checked.circuit where submit read it. Throws ServiceError for a path
  // refused or changed since `checked`, and what the residency manager throws
  // (ParametersDoNotFit, a bad file).
  virtual PreparedJob prepare(const v1::SubmitProofRequest& request, const CheckedJob& checked,
                              const JobContext& context) const = 0;
  // Whether a whole job's proofs, one per partition in order, verify against its
  // parameters (leased for the check); `public_json`: a circom job's public.json.
  virtual bool verifies(const v1::SubmitProofRequest& request, std::span<const groth16::Proof> proofs,
                        const std::string& public_json, const JobContext& context) const = 0;
  // Clears the documents the request carries (a C1 output, vanilla proofs) from a
  // copy held in memory while the journal keeps them; whether it carried any.
  virtual bool drop_documents(v1::SubmitProofRequest& request) const;
  // Whether a finished job answers with proof.json and public.json besides the proof.
  virtual bool answers_json() const;
  // The circuit names PreloadParams gives this kind's parameters ("porep-like",
  // "circom", "filecoin-porep", …).
  virtual std::vector<std::string_view> preload_circuits() const = 0;
  // Leases request.parameter_file as a job of this kind with request's circuit and
  // preset (a PoRep-like preset, a registered seal proof, a sector size) would.
  // Throws ServiceError invalid_argument for a preset that is missing or names
  // nothing, and what prepare() throws for the file.
  virtual Preloaded preload(const v1::PreloadParamsRequest& request, const JobContext& context) const = 0;
};

// The request's kind. Throws ServiceError invalid_argument when it names no instance.
const JobKind& job_kind(const v1::SubmitProofRequest& request);
// The kind whose parameters PreloadParams's `circuit` names (empty: porep-like).
// Throws ServiceError invalid_argument, naming every known circuit, for another name.
const JobKind& preload_kind(std::string_view circuit);
// Its kind's partitions; 0 for a request that names no instance.
std::uint32_t partitions_of(const v1::SubmitProofRequest& request);

// zkpipe.v1.Priority as the engine orders it (critical 0 … low 3).
engine::Priority engine_priority(int priority);

// A request for the circuit's partitions under the leased parameters, each proof
// checked against its partition's public inputs.
PreparedJob circuit_job(residency::ParameterResidency::Lease lease, std::shared_ptr<const r1cs::PartitionedCircuit> circuit,
                        const groth16::ProverBackend& sizing);
// One proof per partition of `circuit`, each verifying under `key`.
bool every_partition_verifies(const groth16::ProvingKey& key, std::span<const groth16::Proof> proofs,
                              const r1cs::PartitionedCircuit& circuit);

}  // namespace zkpipe::service::jobs
