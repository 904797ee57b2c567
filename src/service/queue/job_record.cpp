#include "service/queue/job_record.hpp"

namespace zkpipe::service::queue {

bool is_final(JobStatus status) {
  return status == JobStatus::done || status == JobStatus::failed || status == JobStatus::cancelled;
}

bool name_answers_retry(JobStatus held_status, const std::string& held_digest, const std::string& digest) {
  const bool live_or_proved =
      held_status == JobStatus::queued || held_status == JobStatus::running || held_status == JobStatus::done;
  return live_or_proved && held_digest == digest;
}

}  // namespace zkpipe::service::queue
