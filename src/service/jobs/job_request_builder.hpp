// Engine requests built from jobs: a SubmitProofRequest becomes what the engine
// proves — its parameters leased from the residency manager, the synthesis of each
// partition, and a check that every proof verifies before it is journaled or
// recorded, as `zkpipe prove` does. The service validates through it, and both job
// queues (the local journal's and the cluster's) prove through it; what each step
// means for a kind of job is that kind's (job_kind.hpp).
#pragma once

#include <memory>
#include <span>
#include <string>
#include <utility>

#include "service/config/path_policy.hpp"
#include "service/jobs/job_kind.hpp"
#include "service/residency/residency.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service::jobs {

class JobRequestBuilder {
 public:
  // `sizing`: the backend a partition's working set (its footprint) is sized for.
  // All three outlive the builder.
  JobRequestBuilder(const config::PathPolicy& paths, residency::ParameterResidency& residency, const groth16::ProverBackend& sizing);

  // JobKind::validate of the request's kind (label and priority are the service's).
  CheckedJob validate(const v1::SubmitProofRequest& request,
                      std::shared_ptr<const r1cs::PartitionedCircuit> read = nullptr) const;
  // The residency entry a job needs ("file\ncircuit"), and whether it is loaded;
  // {"", true} for a path that is refused (prepare() then fails at once).
  std::pair<std::string, bool> parameters_of(const v1::SubmitProofRequest& request) const;
  // JobKind::prepare of the request's kind.
  PreparedJob prepare(const v1::SubmitProofRequest& request, const CheckedJob& checked) const;
  // JobKind::verifies of the request's kind. Throws what prepare() throws for the
  // parameters, and FormatError for a bad public.json.
  bool verifies(const v1::SubmitProofRequest& request, std::span<const groth16::Proof> proofs,
                const std::string& public_json) const;

 private:
  JobContext context_;
};

}  // namespace zkpipe::service::jobs
