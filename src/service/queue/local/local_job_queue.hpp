// The job queue of a daemon on its own: every job journaled in the data dir's SQLite
// journal (job_store.hpp), proved by this daemon.
//
//   submit → journal (committed) → start queue (by priority)
//     → the starter thread: acquire the parameters (a lease), submit to the engine;
//       a job whose parameters are not loaded yet is handed to a loader thread (one
//       per key being loaded, the jobs that need the same key parked behind it), so
//       that a long load does not hold up jobs whose parameters are resident
//     → engine (admission by priority and budget) → on_complete: journal the result,
//       release the lease, tell the awaits (JobEvents::finished)
//
// A Filecoin job's C1 output (tens of MiB for a 32 GiB sector) is not held in memory
// while the job waits: it is read back from the journal when the job starts.
//
// At construction every job the journal holds as queued or running is queued again:
// a job accepted before a crash completes or is reported failed, never lost. A job
// that was running when the daemon died three times is failed (it may be what kills
// it). A job a drain or a stop cuts short goes back to queued in the journal.
//
// Locking: mutex_ guards the jobs; it is never held while calling into the engine
// (whose listeners and completion callbacks take it).
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "service/queue/job_queue.hpp"
#include "service/queue/local/job_store.hpp"

namespace zkpipe::service::queue::local {

class LocalJobQueue final : public JobQueue {
 public:
  // Opens the journal in config.data_dir and queues its unfinished jobs (started by
  // start()). Throws StoreError naming the journal.
  explicit LocalJobQueue(const JobQueueServices& services);
  ~LocalJobQueue() override;
  LocalJobQueue(const LocalJobQueue&) = delete;
  LocalJobQueue& operator=(const LocalJobQueue&) = delete;

  void start() override;
  void stop() override;
  std::uint64_t submit(const v1::SubmitProofRequest& request, jobs::CheckedJob checked) override;
  NamedJob submit_named(const v1::SubmitProofRequest& request, jobs::CheckedJob checked, const JobName& name) override;
  std::optional<NamedJob> named(const std::string& name) const override;
  std::optional<AwaitAnswer> answer(std::uint64_t job, bool expired) const override;
  std::optional<std::chrono::steady_clock::duration> answer_poll() const override { return std::nullopt; }
  v1::JobState cancel(std::uint64_t job) override;
  std::size_t drain(std::chrono::steady_clock::time_point until) override;
  bool draining() const override;
  void purge_finished_before(double cutoff) override;
  void report(v1::GetStatusResponse& out) const override;

 private:
  struct Job;

  // Journals the job (under `name` when given) and queues it unless the name was
  // taken. ServiceError unavailable while draining, resource_exhausted at max_jobs.
  NamedJob insert(const v1::SubmitProofRequest& request, jobs::CheckedJob checked, const JobName* name);
  // cancel(), the job ending with `reason` as its error.
  v1::JobState cancel_with(std::uint64_t job, const std::string& reason);
  void starter_loop();
  // Starts the jobs parked behind the load of `key` until none is left.
  void loader_loop(const std::string& key);
  void join_finished_loaders();
  void start(const std::shared_ptr<Job>& job);
  void completed(const std::shared_ptr<Job>& job, const std::shared_future<engine::ProofResult>& result);
  // Under mutex_: the job's final state, journaled.
  void finish_locked(Job& job, JobOutcome outcome, const v1::Timings& timings);
  // submitted_at: the journaled submission time (Unix seconds), which a job's total time counts from.
  void enqueue(std::uint64_t id, const v1::SubmitProofRequest& request, jobs::CheckedJob checked, double submitted_at);
  // A finished job no longer held in memory, from the journal; ServiceError
  // not_found when the journal has none.
  JobRecord journaled(std::uint64_t id) const;
  // The request the job is proved from: as held, when it carries no documents or
  // submit's circuit is held; else as journaled, its Filecoin C1 output or PoSt /
  // SnapDeals vanilla proofs read back. Throws StoreError, std::runtime_error for a
  // journal that no longer holds it.
  v1::SubmitProofRequest request_to_prove(const Job& job) const;
  // Under mutex_: the circuit submit read for the job let go (its documents are read
  // from the journal if it starts again).
  void release_circuit_locked(Job& job);
  // Under mutex_: the job as AwaitProof reports it.
  v1::AwaitProofResponse response_locked(const Job& job) const;

  JobQueueServices services_;
  JobStore store_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::uint64_t, std::shared_ptr<Job>> jobs_;  // not yet final
  // Jobs waiting for the starter, by (priority, id).
  std::set<std::pair<int, std::uint64_t>> to_start_;
  // Jobs waiting for a loader thread, by the parameters it loads.
  std::map<std::string, std::vector<std::shared_ptr<Job>>> parked_;
  std::map<std::string, std::thread> loaders_;  // by the parameters they load
  std::vector<std::thread> finished_loaders_;   // to join
  // The document bytes of the queued jobs whose circuit submit read is held (at most
  // kHeldDocumentBytes).
  std::size_t held_document_bytes_ = 0;
  bool draining_ = false;
  bool stopping_ = false;  // the starter ends
  std::thread starter_;
};

}  // namespace zkpipe::service::queue::local
