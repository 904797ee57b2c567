// The daemon's core, independent of the RPC transport: jobs journaled in the job
// store, proved through one engine under one memory budget, with parameters shared
// through the residency manager.
//
//   SubmitProof → validate → journal (committed) → start queue (by priority)
//     → the starter thread: acquire the parameters (a lease), submit to the engine;
//       a job whose parameters are not loaded yet is handed to a loader thread (one
//       per key being loaded, the jobs that need the same key parked behind it), so
//       that a long load does not hold up jobs whose parameters are resident
//     → engine (admission by priority and budget) → on_complete: journal the result,
//       release the lease, answer the awaiters (parked in the await registry, not
//       holding a thread each)
//
// At construction every job the journal holds as queued or running is started
// again: a job accepted before a crash completes or is reported failed, never lost.
// A job that was running when the daemon died three times is failed (it may be what
// kills it).
//
// Cluster mode (config.queue, a PostgreSQL address; cluster_queue.hpp): jobs are
// inserted into the shared queue instead, and nothing is started from SubmitProof.
// The claimer thread leases partitions of any daemon's jobs (highest priority
// first, at most a pipeline's worth at a time), proves each claimed batch as one
// engine request, records every partition's proof while its lease holds, and the
// daemon that records a job's last partition assembles and verifies it. The
// heartbeat thread renews the leases and stops local work on jobs cancelled
// elsewhere. Await, cancel and status read the shared queue, so any daemon answers
// for any job.
//
// Locking: mutex_ guards the jobs; it is never held while calling into the engine
// (whose listeners and completion callbacks take it).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "engine/engine.hpp"
#include "service/await_registry.hpp"
#include "service/cluster_queue.hpp"
#include "service/config.hpp"
#include "service/job_store.hpp"
#include "service/metrics.hpp"
#include "service/path_policy.hpp"
#include "service/residency.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service {

struct BackendSetup {
  // One per engine device (ServiceConfig::engine_devices), all of one kind.
  std::vector<std::shared_ptr<groth16::ProverBackend>> backends;
  ParameterTiers tiers;
};

class ProvingService {
 public:
  // Opens the journal in config.data_dir and resumes its unfinished jobs. Throws
  // ConfigError / StoreError naming the problem.
  ProvingService(const ServiceConfig& config, BackendSetup backend);
  ~ProvingService();
  ProvingService(const ProvingService&) = delete;
  ProvingService& operator=(const ProvingService&) = delete;

  // Every call below throws ServiceError for a bad request.
  std::uint64_t submit(const v1::SubmitProofRequest& request);
  // Waits up to `wait` (at most 60 s) for the job to finish; a job a drain cuts
  // short is answered ServiceError unavailable.
  v1::AwaitProofResponse await(std::uint64_t id, std::chrono::milliseconds wait);
  // The same without holding a thread: `done` gets the answer when the job
  // finishes, a drain cuts it short, or `wait` (at most 60 s; nullopt: no limit)
  // passes. It runs within this call when there is nothing to wait for (the ticket
  // is then empty), else on the await registry's thread; it must not block.
  std::optional<AwaitRegistry::Ticket> await_async(std::uint64_t id, std::optional<std::chrono::milliseconds> wait,
                                                   AwaitRegistry::Callback done);
  // The caller has gone: true when its waiter was still parked (`done` will not run).
  bool cancel_await(AwaitRegistry::Ticket ticket);
  v1::JobState cancel(std::uint64_t id);
  v1::GetStatusResponse status() const;
  std::string metrics() const;
  v1::PreloadParamsResponse preload(const v1::PreloadParamsRequest& request);
  std::uint64_t evict(const std::string& parameter_file);
  v1::LedgerSnapshot ledger_snapshot() const;

  // For tests: hold admission (jobs queue in the engine) and let it go.
  void pause();
  void resume();

  // Stops accepting jobs, lets the running ones finish for up to `deadline`, then
  // cancels the rest; those stay in the journal (queued) and run at the next start.
  // Returns how many were cut short.
  std::size_t drain(std::chrono::duration<double> deadline);
  bool draining() const;

  memory::BufferLedger& ledger() { return engine_->ledger(); }

 private:
  struct Job;
  class Progress;

  struct Prepared;
  struct ClusterWork;
  struct CheckedFiles;

  void starter_loop();
  void janitor_loop();
  // Starts the jobs parked behind the load of `key` until none is left.
  void loader_loop(const std::string& key);
  void join_finished_loaders();
  // Starts the service's own threads (the claimer and heartbeat in cluster mode).
  void start_threads();
  // Stops and joins every thread, leaving unfinished jobs queued; the destructor's work.
  void stop();
  void start(const std::shared_ptr<Job>& job);
  Prepared prepare_porep(const std::shared_ptr<Job>& job);
  Prepared prepare_circom(const std::shared_ptr<Job>& job);
  // The residency entry a job needs ("file\ncircuit"), and whether it is loaded.
  std::pair<std::string, bool> parameters_of(const Job& job) const;

  // Cluster mode.
  void claim_loop();
  void heartbeat_loop();
  void start_claimed(const std::vector<ClaimedPartition>& batch);
  void claimed_done(const std::shared_ptr<ClusterWork>& work, const std::shared_future<engine::ProofResult>& result);
  // Assembles a job whose partitions are all recorded (any daemon's); logs failures.
  void try_assemble(std::uint64_t job);
  JobOutcome assemble(const JobRecord& job, const std::vector<ProvedPartition>& partitions);
  // A finished job no longer held in memory, from the journal; ServiceError
  // not_found when the journal has none.
  JobRecord journaled(std::uint64_t id) const;
  // An await's answer now; nullopt while it is worth waiting (never once `expired`).
  std::optional<AwaitAnswer> answer_now(std::uint64_t id, bool expired) const;
  // Under mutex_: the job as AwaitProof reports it.
  v1::AwaitProofResponse response_locked(const Job& job) const;
  void completed(const std::shared_ptr<Job>& job, const std::shared_future<engine::ProofResult>& result);
  // Under mutex_: the job's final state, journaled.
  void finish_locked(Job& job, JobOutcome outcome, const v1::Timings& timings);
  // submitted_at: the journaled submission time (Unix seconds), which a job's total time counts from.
  std::shared_ptr<Job> enqueue(std::uint64_t id, const v1::SubmitProofRequest& request, CheckedFiles checked,
                               double submitted_at);
  CheckedFiles validate(const v1::SubmitProofRequest& request) const;

  const ServiceConfig config_;
  const std::chrono::steady_clock::time_point started_;
  const std::size_t baseline_rss_;
  BackendSetup backend_;
  PathPolicy paths_;
  std::unique_ptr<JobStore> store_;        // the SQLite journal; null in cluster mode
  std::unique_ptr<ClusterQueue> cluster_;  // the shared queue; null otherwise
  std::shared_ptr<Progress> progress_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<ParameterResidency> residency_;
  LatencyHistogram latency_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::uint64_t, std::shared_ptr<Job>> jobs_;  // not yet final
  // Jobs waiting for the starter, by (priority, id).
  std::set<std::pair<int, std::uint64_t>> to_start_;
  // Jobs waiting for a loader thread, by the parameters it loads.
  std::map<std::string, std::vector<std::shared_ptr<Job>>> parked_;
  std::map<std::string, std::thread> loaders_;     // by the parameters they load
  std::vector<std::thread> finished_loaders_;      // to join
  // Cluster mode: claimed batches in the engine, by engine request id (each holds
  // its partitions' leases until recorded or released), and their partition count.
  std::map<std::uint64_t, std::shared_ptr<ClusterWork>> cluster_work_;
  std::size_t cluster_partitions_ = 0;
  std::size_t claim_capacity_ = 1;  // partitions claimed and not yet recorded, at most
  std::uint64_t next_work_ = 0;
  // Jobs this daemon cannot serve (a file outside its roots): not claimed again.
  std::vector<std::uint64_t> cannot_serve_;
  std::thread heartbeat_;
  JobCounters counters_;
  bool draining_ = false;
  bool stopping_ = false;  // the starter and janitor end

  std::thread starter_;
  std::thread janitor_;
  // Last: destroyed first, while what its checks read is still there.
  std::unique_ptr<AwaitRegistry> awaits_;
};

}  // namespace zkpipe::service
