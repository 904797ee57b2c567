// The job queue as the proving service sees it: where an accepted job is journaled,
// what takes it to the engine, and where its result is read back. Two
// implementations, picked by the configuration (open_job_queue):
//
//   LocalJobQueue (local/local_job_queue.hpp): the data dir's SQLite journal and an
//     in-process queue; this daemon proves every job it accepts, and only it.
//   ClusterJobQueue (cluster/cluster_job_queue.hpp): the PostgreSQL queue several daemons
//     share (config.queue, docs/CLUSTER.md); this daemon's ClusterWorker proves
//     partitions of any daemon's jobs, and any daemon answers for any job.
//
// The service keeps what does not depend on the queue: validating requests, the
// parked awaits (told of changes through JobEvents), status, residency.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "engine/engine.hpp"
#include "service/await_registry.hpp"
#include "service/config/config.hpp"
#include "service/jobs/job_request_builder.hpp"
#include "service/metrics/metrics.hpp"
#include "service/metrics/partition_progress.hpp"
#include "service/queue/job_record.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service::queue {

// What a queue tells the service's parked awaits.
class JobEvents {
 public:
  // The job finished: its waiters get `response` as it is.
  virtual void finished(std::uint64_t job, const v1::AwaitProofResponse& response) = 0;
  // The job's state changed: its waiters ask the queue again.
  virtual void changed(std::uint64_t job) = 0;
  // Every job's answer may have changed (a drain, a stop).
  virtual void all_changed() = 0;

 protected:
  ~JobEvents() = default;
};

// What a queue proves with; every one outlives the queue.
struct JobQueueServices {
  const config::ServiceConfig& config;
  engine::Engine& engine;  // its progress listener: `progress`
  const jobs::JobRequestBuilder& requests;
  metrics::PartitionProgress& progress;
  metrics::JobTally& tally;
  JobEvents& events;
};

class JobQueue {
 public:
  virtual ~JobQueue() = default;

  // Starts the threads that take jobs to the engine; none run before (so events
  // begin after the service is ready for them).
  virtual void start() = 0;
  // Stops taking jobs and joins those threads; unfinished jobs stay queued. The
  // engine is shut down after it (ShutdownMode::cancel) and completes what it still
  // holds into the queue, which must take it. Idempotent.
  virtual void stop() = 0;

  // Journals the job (committed when this returns) and queues it; returns its id.
  // ServiceError: unavailable while draining or when the queue cannot be reached,
  // resource_exhausted when it holds config.max_jobs unfinished jobs.
  virtual std::uint64_t submit(const v1::SubmitProofRequest& request, jobs::CheckedJob checked) = 0;
  // As submit, the job journaled under `name`. When the name's job answers the retry
  // (name_answers_retry: queued, running or done, for the same request) nothing is
  // queued and that job is answered (existed); otherwise the name moves to a new job
  // and the earlier one, when unfinished, is cancelled (replaced_reason). One step in
  // the journal: two submits of one name queue one job.
  virtual NamedJob submit_named(const v1::SubmitProofRequest& request, jobs::CheckedJob checked, const JobName& name) = 0;
  // The job journaled under `name`, while the journal keeps it. ServiceError unavailable.
  virtual std::optional<NamedJob> named(const std::string& name) const = 0;
  // AwaitProof's answer now; nullopt while it is worth waiting (never once
  // `expired`). ServiceError not_found, unavailable.
  virtual std::optional<AwaitAnswer> answer(std::uint64_t job, bool expired) const = 0;
  // How often parked awaits must ask again without an event (a job another daemon
  // may finish); nullopt: events are enough.
  virtual std::optional<std::chrono::steady_clock::duration> answer_poll() const = 0;
  // The job's state after; once it returns, this daemon holds nothing of the job.
  // ServiceError not_found, unavailable.
  virtual v1::JobState cancel(std::uint64_t job) = 0;

  // Takes no more jobs; what runs gets until `until`, then is cut short and stays
  // queued (for the next start, or another daemon). Returns how many were cut short.
  virtual std::size_t drain(std::chrono::steady_clock::time_point until) = 0;
  virtual bool draining() const = 0;
  // Drops the finished jobs older than `cutoff` (Unix seconds). Throws StoreError.
  virtual void purge_finished_before(double cutoff) = 0;
  // The queue's rows of GetStatus: its depth by priority (and the cluster).
  // ServiceError unavailable.
  virtual void report(v1::GetStatusResponse& out) const = 0;
};

// The cluster's queue when config.queue names one, else the data dir's journal with
// its unfinished jobs queued again. Throws ConfigError / StoreError naming the problem.
std::unique_ptr<JobQueue> open_job_queue(const JobQueueServices& services);

// Shared by the implementations.
double unix_now();
v1::JobState state_of(JobStatus status);
// A job's end without a proof (failed, cancelled).
JobOutcome unsuccessful(JobStatus status, std::string error);
// The error of a job cancelled by its client, and of one whose name a later submit
// took with another request (its job: `by`).
inline constexpr const char* kCancelledByClient = "cancelled by the client";
std::string replaced_reason(std::uint64_t by);
// A journaled job as AwaitProof reports it; `done_so_far`: the partitions done while
// it is not finished (all of them once it is).
v1::AwaitProofResponse response_from_record(const JobRecord& record, std::uint32_t done_so_far);
ServiceError unavailable(const StoreError& e);
// The priority as GetStatus's queue rows name it ("critical" … "low").
std::string priority_label(engine::Priority priority);

}  // namespace zkpipe::service::queue
