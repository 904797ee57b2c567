// The job queue of a daemon in a cluster (`zkpipe serve --queue postgresql://…`,
// docs/CLUSTER.md): jobs are inserted into the PostgreSQL queue the daemons share
// (cluster_queue.hpp) and nothing is started from a submit; this daemon's
// ClusterWorker proves partitions of any daemon's jobs. Awaits, cancels and status
// read the shared queue, so any daemon answers for any job; a job another daemon
// finishes is noticed by polling (answer_poll).
#pragma once

#include "service/queue/cluster/cluster_queue.hpp"
#include "service/queue/cluster/cluster_worker.hpp"
#include "service/queue/job_queue.hpp"

namespace zkpipe::service::queue::cluster {

class ClusterJobQueue final : public JobQueue {
 public:
  // Connects to config.queue (retrying for reconnect_seconds), applies the schema's
  // migrations and registers this daemon. Throws StoreError naming the database.
  explicit ClusterJobQueue(const JobQueueServices& services);

  void start() override;
  void stop() override;
  std::uint64_t submit(const v1::SubmitProofRequest& request, jobs::CheckedJob checked) override;
  NamedJob submit_named(const v1::SubmitProofRequest& request, jobs::CheckedJob checked, const JobName& name) override;
  std::optional<NamedJob> named(const std::string& name) const override;
  std::optional<AwaitAnswer> answer(std::uint64_t job, bool expired) const override;
  std::optional<std::chrono::steady_clock::duration> answer_poll() const override;
  v1::JobState cancel(std::uint64_t job) override;
  std::size_t drain(std::chrono::steady_clock::time_point until) override;
  bool draining() const override;
  void purge_finished_before(double cutoff) override;
  void report(v1::GetStatusResponse& out) const override;

 private:
  // The job into the cluster's queue, under `name` when given.
  NamedJob insert(const v1::SubmitProofRequest& request, const JobName* name);
  // cancel(), the job ending with `reason` as its error.
  v1::JobState cancel_with(std::uint64_t job, const std::string& reason);

  JobQueueServices services_;
  // A connection: its calls take its own lock, answer() and report() included.
  mutable ClusterQueue queue_;
  ClusterWorker worker_;  // after queue_: stopped before the queue closes
};

}  // namespace zkpipe::service::queue::cluster
