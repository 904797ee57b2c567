// What a job is to either queue (the SQLite journal of queue/local/, the PostgreSQL
// queue of queue/cluster/): its states, its record and outcome, the client's name for
// it, and the errors of the store that holds it.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace zkpipe::service::queue {

class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The states as the journal holds them (the values of zkpipe.v1.JobState).
enum class JobStatus : int { queued = 1, running = 2, done = 3, failed = 4, cancelled = 5 };

bool is_final(JobStatus status);

struct JobRecord {
  std::uint64_t id = 0;
  int priority = 0;          // zkpipe.v1.Priority
  std::string request;       // the serialized SubmitProofRequest
  JobStatus status = JobStatus::queued;
  std::string error;
  std::string proof;         // 192 bytes per partition
  std::string proof_json;    // circom jobs: snarkjs's proof.json
  std::string public_json;   // circom jobs: public.json
  std::string timings;       // the serialized Timings
  double submitted_at = 0;   // Unix seconds
  double finished_at = 0;
  int attempts = 0;          // times a daemon started running it
};

// What finish() journals.
struct JobOutcome {
  JobStatus status = JobStatus::done;
  std::string error;
  std::string proof;
  std::string proof_json;
  std::string public_json;
  std::string timings;
};

// A client's own name for a job (cuzk's request_id) and a digest of the request it
// named: a retry under the name finds its job, across restarts and daemons; another
// request under the name can be told from it.
struct JobName {
  std::string name;
  std::string digest;
};

// A job a name was given to earlier and taken from by a later submit: the name's
// earlier job failed or was cancelled, or the name came with another request. Its
// record stays under its id; the caller cancels it while it is unfinished.
struct ReplacedJob {
  std::uint64_t id = 0;
  JobStatus status = JobStatus::queued;
};

struct NamedJob {
  std::uint64_t id = 0;
  std::string digest;    // of the request the name was given with
  bool existed = false;  // submit_named: the name's job answers the retry, nothing was queued
  std::optional<ReplacedJob> replaced;  // submit_named: the job the name was taken from
};

// How a name already held by a job answers a submit of (digest): that job when it
// is queued, running or done for the same request; otherwise the name moves to a new
// job (nullopt) — Curio's only recovery from anything is to send the same request
// again, and a changed request under one id is a new attempt.
bool name_answers_retry(JobStatus held_status, const std::string& held_digest, const std::string& digest);

}  // namespace zkpipe::service::queue
