#include "service/queue/job_queue.hpp"

#include <algorithm>
#include <cctype>

#include "service/queue/cluster/cluster_job_queue.hpp"
#include "service/queue/local/local_job_queue.hpp"

namespace zkpipe::service::queue {

std::unique_ptr<JobQueue> open_job_queue(const JobQueueServices& services) {
  if (services.config.queue.empty()) return std::make_unique<local::LocalJobQueue>(services);
  return std::make_unique<cluster::ClusterJobQueue>(services);
}

double unix_now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

v1::JobState state_of(JobStatus status) { return static_cast<v1::JobState>(static_cast<int>(status)); }

JobOutcome unsuccessful(JobStatus status, std::string error) {
  JobOutcome out;
  out.status = status;
  out.error = std::move(error);
  return out;
}

std::string replaced_reason(std::uint64_t by) {
  return "replaced by job " + std::to_string(by) + ": its request id was submitted again with another request";
}

v1::AwaitProofResponse response_from_record(const JobRecord& record, std::uint32_t done_so_far) {
  v1::SubmitProofRequest request;
  request.ParseFromString(record.request);
  v1::AwaitProofResponse out;
  out.set_job_id(record.id);
  out.set_state(state_of(record.status));
  out.set_error(record.error);
  out.set_proof(record.proof);
  out.set_proof_json(record.proof_json);
  out.set_public_json(record.public_json);
  out.mutable_timings()->ParseFromString(record.timings);
  out.set_partitions(jobs::partitions_of(request));
  out.set_partitions_done(record.status == JobStatus::done ? jobs::partitions_of(request) : done_so_far);
  return out;
}

ServiceError unavailable(const StoreError& e) { return ServiceError(ErrorKind::unavailable, e.what()); }

std::string priority_label(engine::Priority priority) {
  std::string name(engine::priority_name(priority));
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name;
}

}  // namespace zkpipe::service::queue
