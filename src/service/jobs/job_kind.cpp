#include "service/jobs/job_kind.hpp"

#include <array>
#include <utility>

#include "formats/excerpt.hpp"
#include "groth16/verifier.hpp"
#include "proving/proof_request.hpp"
#include "service/errors.hpp"
#include "service/jobs/circom_job.hpp"
#include "service/jobs/filecoin_porep_job.hpp"
#include "service/jobs/filecoin_post_job.hpp"
#include "service/jobs/filecoin_update_job.hpp"
#include "service/jobs/porep_like_job.hpp"

namespace zkpipe::service::jobs {

bool JobKind::drop_documents(v1::SubmitProofRequest&) const { return false; }

bool JobKind::answers_json() const { return false; }

const JobKind& job_kind(const v1::SubmitProofRequest& request) {
  switch (request.instance_case()) {
    case v1::SubmitProofRequest::kPorep: return porep_like_job();
    case v1::SubmitProofRequest::kCircom: return circom_job();
    case v1::SubmitProofRequest::kFilecoinPorep: return filecoin_porep_job();
    case v1::SubmitProofRequest::kFilecoinPost: return filecoin_post_job();
    case v1::SubmitProofRequest::kFilecoinUpdate: return filecoin_update_job();
    case v1::SubmitProofRequest::INSTANCE_NOT_SET: break;
  }
  throw ServiceError(ErrorKind::invalid_argument,
                     "no instance given (porep, circom, filecoin_porep, filecoin_post or filecoin_update)");
}

const JobKind& preload_kind(std::string_view circuit) {
  if (circuit.empty()) circuit = "porep-like";
  const std::array<const JobKind*, 5> kinds{&porep_like_job(), &circom_job(), &filecoin_porep_job(),
                                            &filecoin_post_job(), &filecoin_update_job()};
  std::string known;
  for (const JobKind* kind : kinds) {
    for (std::string_view name : kind->preload_circuits()) {
      if (name == circuit) return *kind;
      known += (known.empty() ? "" : ", ") + std::string(name);
    }
  }
  throw ServiceError(ErrorKind::invalid_argument,
                     "unknown circuit '" + formats::excerpt(circuit, 64) + "' (known: " + known + ")");
}

std::uint32_t partitions_of(const v1::SubmitProofRequest& request) {
  if (request.instance_case() == v1::SubmitProofRequest::INSTANCE_NOT_SET) return 0;
  return job_kind(request).partitions(request);
}

engine::Priority engine_priority(int priority) {
  switch (priority) {
    case v1::PRIORITY_CRITICAL: return engine::Priority::critical;
    case v1::PRIORITY_HIGH: return engine::Priority::high;
    case v1::PRIORITY_LOW: return engine::Priority::low;
    default: return engine::Priority::normal;
  }
}

PreparedJob circuit_job(residency::ParameterResidency::Lease lease, std::shared_ptr<const r1cs::PartitionedCircuit> circuit,
                        const groth16::ProverBackend& sizing) {
  PreparedJob out{std::move(lease), {}};
  out.request = proving::preset_request(proving::request_basis(out.lease.parameters(), sizing), std::move(circuit));
  return out;
}

bool every_partition_verifies(const groth16::ProvingKey& key, std::span<const groth16::Proof> proofs,
                              const r1cs::PartitionedCircuit& circuit) {
  if (proofs.size() != circuit.partitions()) return false;
  const groth16::PreparedVerifyingKey pvk(key.vk);
  for (std::size_t p = 0; p < proofs.size(); ++p) {
    if (!groth16::verify(pvk, proofs[p], circuit.public_inputs(p))) return false;
  }
  return true;
}

}  // namespace zkpipe::service::jobs
