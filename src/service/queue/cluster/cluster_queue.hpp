// The cluster's job queue (`zkpipe serve --queue postgresql://…`): several daemons
// share one PostgreSQL database, the same job model as the embedded SQLite journal
// (jobs with a priority, journaled before SubmitProof returns, results kept), with
// the partitions of each job as the unit of work:
//
//   zkpipe_jobs        one row per proof: request, state, assembled result
//   zkpipe_partitions  one row per partition: queued → leased (owner, lease_until)
//                      → done (its 192-byte proof, who proved it)
//   zkpipe_daemons     one row per daemon: heartbeat, budget, address
//
// - claim(): a daemon leases queued partitions, and leased ones whose lease has
//   expired (a dead daemon's), highest priority and oldest job first, with
//   FOR UPDATE SKIP LOCKED so that daemons claiming at once never take the same row.
// - heartbeat(): renews every lease the daemon holds; a daemon that stops
//   heartbeating (kill -9) loses its leases lease_seconds later.
// - record(): stores a partition's proof only while the daemon still holds its
//   lease (owner and state checked in the UPDATE): a partition re-claimed by
//   another daemon is recorded by one of them, never twice.
// - assemble(): once every partition is done, one daemon (the job row locked, its
//   state checked) concatenates, verifies and marks the job done: once.
// - Schema migrations (zkpipe_schema_migrations) are applied at start under an
//   advisory lock, so daemons starting together apply each one once.
// - Connection loss (a database restart): every call reconnects with exponential
//   backoff (0.1 s doubling to 5 s) and retries, for up to reconnect_seconds.
//   Calls are idempotent or fenced (record's owner check), so a retry after a lost
//   commit does no harm; insert is the exception and reports the loss instead.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "service/queue/job_record.hpp"

namespace zkpipe::service::queue::cluster {

struct ClusterOptions {
  std::string url;            // postgresql://…
  std::string daemon;         // this daemon's name (unique in the cluster)
  std::string address;        // where clients reach it (status shows it)
  double lease_seconds = 10;  // a lease not renewed for this long is re-claimable
  double reconnect_seconds = 120;  // give up on the database after this long
};

struct ClaimedPartition {
  std::uint64_t job = 0;
  std::uint32_t partition = 0;
  int priority = 0;
  std::string request;   // the job's serialized SubmitProofRequest
  bool reclaimed = false;  // its previous lease expired (another daemon died or stalled)
};

struct ClusterDaemonInfo {
  std::string name;
  std::string address;
  double heartbeat_age = 0;  // seconds
  std::uint64_t leases = 0;
  std::uint64_t partitions_proved = 0;
};

struct ClusterStatus {
  std::vector<ClusterDaemonInfo> daemons;
  std::vector<std::pair<int, std::uint64_t>> queue;  // priority → unfinished jobs
  std::uint64_t leased = 0;             // partitions of unfinished jobs
  std::uint64_t queued_partitions = 0;  // partitions of unfinished jobs
  std::uint64_t reclaimed = 0;  // partitions claimed more than once, in unfinished and finished jobs
};

struct ProvedPartition {
  std::string proof;        // 192 bytes
  std::string public_json;  // circom jobs
};

class ClusterQueue {
 public:
  // Gets the job (request, submitted_at) and its partitions in order.
  using Assembler = std::function<JobOutcome(const JobRecord& job, const std::vector<ProvedPartition>&)>;

  // Connects (retrying as above), applies the migrations, registers the daemon.
  // Throws StoreError naming the database and the problem.
  explicit ClusterQueue(ClusterOptions options);
  ~ClusterQueue();
  ClusterQueue(const ClusterQueue&) = delete;
  ClusterQueue& operator=(const ClusterQueue&) = delete;

  const ClusterOptions& options() const { return options_; }
  static int schema_version();

  std::uint64_t insert(int priority, const std::string& request, std::uint32_t partitions, double now);
  // The same under a name, unless the name's job (any daemon's) answers the retry
  // (name_answers_retry): then that job, nothing inserted; otherwise the earlier job
  // gives up the name (replaced) in the same transaction. The name's row is locked
  // and the insert refuses a taken name, so racing daemons queue one job.
  NamedJob insert_named(int priority, const std::string& request, std::uint32_t partitions, double now,
                        const JobName& name);
  std::optional<NamedJob> find_named(const std::string& name);
  std::optional<JobRecord> get(std::uint64_t id);
  // The job's state alone (nullopt: no such job): what a waiter asks while the job
  // runs, without the request (a Filecoin job's carries its C1 output).
  std::optional<JobStatus> state(std::uint64_t id);
  std::uint32_t partitions_done(std::uint64_t id);
  // Marks a job cancelled (or failed) unless it finished; returns its state after
  // (nullopt: no such job).
  std::optional<JobStatus> end(std::uint64_t id, const JobOutcome& outcome, double now);

  // Leases up to max_partitions, none of the jobs in `skip` (ones this daemon
  // cannot serve).
  std::vector<ClaimedPartition> claim(std::size_t max_partitions, const std::vector<std::uint64_t>& skip);
  // Renews this daemon's leases; returns the jobs of its leases that were cancelled
  // or failed meanwhile (their local work should stop).
  std::vector<std::uint64_t> heartbeat();
  // Gives leased partitions back at once (a drain); no-op for ones not held.
  void release(std::uint64_t job, const std::vector<std::uint32_t>& partitions);
  // True when this daemon's lease held and the proof is now the partition's.
  // public_json: a circom job's public.json (its one partition), else empty.
  bool record(std::uint64_t job, std::uint32_t partition, const std::string& proof, const std::string& public_json);
  // When every partition is done and the job is unfinished: calls assemble under
  // the job's row lock and stores what it returns (done with the proof, or
  // failed). Returns whether this call did.
  bool assemble(std::uint64_t job, const Assembler& assemble, double now);
  // Unfinished jobs whose partitions are all done: their assembler died between
  // recording the last partition and assembling.
  std::vector<std::uint64_t> unassembled();
  ClusterStatus status();
  std::size_t purge_finished_before(double cutoff);

 private:
  struct Connection;  // pqxx's, kept out of this header

  // Runs f(pqxx::connection&) on a live connection; on a lost one reconnects with
  // backoff and runs it again (idempotent calls only).
  template <class F>
  auto with_retry(bool idempotent, F&& f);
  void connect_locked();
  void migrate_locked();

  ClusterOptions options_;
  std::mutex mutex_;  // one connection, one call at a time
  std::unique_ptr<Connection> connection_;
};

}  // namespace zkpipe::service::queue::cluster
