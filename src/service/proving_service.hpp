// The daemon's core, independent of the RPC transport: requests validated, jobs
// handed to the job queue (queue/job_queue.hpp: the data dir's SQLite journal, or
// the cluster's PostgreSQL queue), proved through one engine under one memory
// budget, with parameters shared through the residency manager.
//
//   SubmitProof → validate (paths confined and opened, the key's shape) → the
//     queue journals the job (committed) and takes it to the engine
//     (queue/local/local_job_queue.hpp, queue/cluster/cluster_worker.hpp),
//     building its engine request from the job (jobs/job_request_builder.hpp)
//   AwaitProof → the queue's answer now, or a waiter parked in the await registry
//     (holding no thread) until the queue tells of the job's end or a drain
//
// The janitor thread evicts idle parameters and purges old results.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "engine/engine.hpp"
#include "service/await_registry.hpp"
#include "service/config/config.hpp"
#include "service/config/path_policy.hpp"
#include "service/jobs/job_request_builder.hpp"
#include "service/metrics/metrics.hpp"
#include "service/metrics/partition_progress.hpp"
#include "service/queue/job_queue.hpp"
#include "service/residency/residency.hpp"
#include "zkpipe/v1/zkpipe.pb.h"

namespace zkpipe::service {

struct BackendSetup {
  // One per engine device (ServiceConfig::engine_devices), all of one kind.
  std::vector<std::shared_ptr<groth16::ProverBackend>> backends;
  residency::ParameterTiers tiers;
};

class ProvingService final : private queue::JobEvents {
 public:
  // Opens the job queue (open_job_queue: the journal in config.data_dir, its
  // unfinished jobs resumed, or the cluster's). Throws ConfigError / StoreError
  // naming the problem.
  ProvingService(const config::ServiceConfig& config, BackendSetup backend);
  ~ProvingService();
  ProvingService(const ProvingService&) = delete;
  ProvingService& operator=(const ProvingService&) = delete;

  // Every call below throws ServiceError for a bad request.
  // `read`: the circuit a front end has already read the request's documents into
  // (cuzk's C1 output), kept for the engine; null: the request's kind reads them.
  std::uint64_t submit(const v1::SubmitProofRequest& request,
                       std::shared_ptr<const r1cs::PartitionedCircuit> read = nullptr);
  // Under a client's name (JobQueue::submit_named): a name already journaled answers
  // its job and queues nothing. The request is checked either way.
  queue::NamedJob submit_named(const v1::SubmitProofRequest& request, const queue::JobName& name,
                        std::shared_ptr<const r1cs::PartitionedCircuit> read = nullptr);
  std::optional<queue::NamedJob> named(const std::string& name) const;
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
  // cancels the rest; those stay queued (in the journal, for the next start; in the
  // cluster's queue, for any daemon).
  // Returns how many were cut short.
  std::size_t drain(std::chrono::duration<double> deadline);
  bool draining() const;

  memory::BufferLedger& ledger() { return engine_->ledger(); }

 private:
  void janitor_loop();
  // Stops and joins every thread, leaving unfinished jobs queued; the destructor's work.
  void stop();
  // The label and priority, then the request's kind (JobKind::validate).
  jobs::CheckedJob validate(const v1::SubmitProofRequest& request,
                            std::shared_ptr<const r1cs::PartitionedCircuit> read) const;

  // JobEvents: to the await registry.
  void finished(std::uint64_t job, const v1::AwaitProofResponse& response) override;
  void changed(std::uint64_t job) override;
  void all_changed() override;

  const config::ServiceConfig config_;
  const std::chrono::steady_clock::time_point started_;
  const std::size_t baseline_rss_;
  BackendSetup backend_;
  config::PathPolicy paths_;
  std::shared_ptr<metrics::PartitionProgress> progress_;
  std::unique_ptr<engine::Engine> engine_;
  std::unique_ptr<residency::ParameterResidency> residency_;
  std::unique_ptr<jobs::JobRequestBuilder> requests_;
  metrics::JobTally tally_;
  std::unique_ptr<queue::JobQueue> queue_;

  std::mutex janitor_mutex_;
  std::condition_variable janitor_wake_;
  bool stopping_ = false;  // the janitor ends
  std::thread janitor_;
  // Last: destroyed first, while what its checks read is still there.
  std::unique_ptr<AwaitRegistry> awaits_;
};

}  // namespace zkpipe::service
