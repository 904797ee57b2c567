#include "service/jobs/job_request_builder.hpp"

namespace zkpipe::service::jobs {

JobRequestBuilder::JobRequestBuilder(const config::PathPolicy& paths, residency::ParameterResidency& residency,
                                     const groth16::ProverBackend& sizing)
    : context_{paths, residency, sizing} {}

CheckedJob JobRequestBuilder::validate(const v1::SubmitProofRequest& request,
                                       std::shared_ptr<const r1cs::PartitionedCircuit> read) const {
  return job_kind(request).validate(request, std::move(read), context_);
}

std::pair<std::string, bool> JobRequestBuilder::parameters_of(const v1::SubmitProofRequest& request) const {
  try {
    const ParameterEntry entry = job_kind(request).parameters(request, context_.paths);
    return {entry.file.string() + "\n" + entry.circuit, context_.residency.loaded(entry.file, entry.circuit)};
  } catch (const std::exception&) {
    return {"", true};
  }
}

PreparedJob JobRequestBuilder::prepare(const v1::SubmitProofRequest& request, const CheckedJob& checked) const {
  return job_kind(request).prepare(request, checked, context_);
}

bool JobRequestBuilder::verifies(const v1::SubmitProofRequest& request, std::span<const groth16::Proof> proofs,
                                 const std::string& public_json) const {
  return job_kind(request).verifies(request, proofs, public_json, context_);
}

}  // namespace zkpipe::service::jobs
