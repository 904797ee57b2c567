// This daemon's work on the cluster's shared queue (cluster_queue.hpp):
//
// - The claimer thread leases partitions of any daemon's jobs (highest priority
//   first, at most a pipeline's worth at a time: synthesis workers + workers per
//   device × devices + 1), proves each claimed batch of one job as one engine
//   request, and records every partition's proof while its lease holds. A job this
//   daemon cannot serve (a file outside its roots, a key that does not fit its
//   budget) is given back and never claimed again here; a job whose own files are
//   bad is failed.
// - The daemon that records a job's last partition assembles it: every partition
//   verified once more as a whole, the job marked done (or failed), once.
// - The heartbeat thread renews the leases, stops local work on jobs cancelled or
//   failed elsewhere, and sweeps for jobs whose assembler died.
//
// Locking: mutex_ guards the claimed work; it is never held while calling into the
// engine (whose completion callbacks take it) or the database.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "service/queue/cluster/cluster_queue.hpp"
#include "service/queue/job_queue.hpp"

namespace zkpipe::service::queue::cluster {

class ClusterWorker {
 public:
  // `queue` outlives the worker.
  ClusterWorker(const JobQueueServices& services, ClusterQueue& queue);
  ~ClusterWorker();
  ClusterWorker(const ClusterWorker&) = delete;
  ClusterWorker& operator=(const ClusterWorker&) = delete;

  // Starts the claimer and heartbeat threads.
  void start();
  // Claims no more and joins the threads; what the engine holds is given back when
  // its requests complete (cancelled). Idempotent.
  void stop();
  // Work was submitted: the claimer asks the queue at once.
  void wake();
  // The job ended (cancelled here): this daemon's part of it stops now.
  void stop_job(std::uint64_t job);
  // Claims no more; what runs past `until` is cancelled and its leases given back,
  // for another daemon to take at once. Returns how many claimed batches were cut short.
  std::size_t drain(std::chrono::steady_clock::time_point until);
  bool draining() const;

 private:
  struct Work;

  void claim_loop();
  void heartbeat_loop();
  void start_claimed(const std::vector<ClaimedPartition>& batch);
  void claimed_done(const std::shared_ptr<Work>& work, const std::shared_future<engine::ProofResult>& result);
  // Under mutex_: the engine requests of this daemon's work on the jobs, marked cancelled.
  std::vector<std::uint64_t> cancel_locked(const std::vector<std::uint64_t>& jobs);
  // Assembles a job whose partitions are all recorded (any daemon's); logs failures.
  void try_assemble(std::uint64_t job);
  JobOutcome assemble(const JobRecord& job, const std::vector<ProvedPartition>& partitions) const;

  JobQueueServices services_;
  ClusterQueue& queue_;
  const std::size_t capacity_;  // partitions claimed and not yet recorded, at most

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  // Claimed batches in the engine, by sequence number (each holds its partitions'
  // leases until recorded or released), and their partition count.
  std::map<std::uint64_t, std::shared_ptr<Work>> work_;
  std::size_t partitions_ = 0;
  std::uint64_t next_work_ = 0;
  // Jobs this daemon cannot serve (a file outside its roots): not claimed again.
  std::vector<std::uint64_t> cannot_serve_;
  bool draining_ = false;
  bool stopping_ = false;
  std::thread claimer_;
  std::thread heartbeat_;
};

}  // namespace zkpipe::service::queue::cluster
