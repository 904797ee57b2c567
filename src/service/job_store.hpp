// The durable job queue: every accepted job and every finished result, journaled in
// SQLite (<data dir>/jobs.sqlite) before the client hears of it. SubmitProof returns
// only after the job's row is committed, so a job a client holds an id for survives
// kill -9; at the next start the daemon runs every job still queued or running.
//
// Durability: WAL with synchronous=NORMAL — a commit survives the process's death
// (kill -9, a crash), which is what the queue promises; an OS crash or power loss may
// lose the last commits (synchronous=FULL would cost an fsync per job).
//
// A damaged journal is refused, never half read: the open runs SQLite's integrity
// check, and the journal must reach the last id given out (job_id_floor.hpp). Ids are
// never reused: AUTOINCREMENT keeps them above every row ever inserted, and a journal
// started afresh (the old one moved aside) continues after the recorded last id.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "service/job_id_floor.hpp"

struct sqlite3;

namespace zkpipe::service {

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

class JobStore {
 public:
  // Opens (creating if needed) the journal, bringing an older schema up to date
  // (PRAGMA user_version); throws StoreError naming the file, also when the journal
  // is damaged or has lost jobs that clients hold ids of.
  explicit JobStore(const std::filesystem::path& path);
  ~JobStore();
  JobStore(const JobStore&) = delete;
  JobStore& operator=(const JobStore&) = delete;

  // Commits a queued job; returns its id.
  std::uint64_t insert(int priority, const std::string& request, double now);
  // The same under a name, unless the name's job answers the retry
  // (name_answers_retry): then that job, nothing inserted. Otherwise the earlier job
  // gives up the name (replaced) and the new one takes it, in one transaction.
  NamedJob insert_named(int priority, const std::string& request, double now, const JobName& name);
  std::optional<NamedJob> find_named(const std::string& name) const;
  // Counts one more attempt.
  void mark_running(std::uint64_t id);
  // Back to queued, the attempt not counted (a drain cut it short, not a crash).
  void requeue(std::uint64_t id);
  // Records the outcome of a job still queued or running (a finished job keeps its first).
  void finish(std::uint64_t id, const JobOutcome& outcome, double now);
  std::optional<JobRecord> get(std::uint64_t id) const;
  // Queued or running, in id (arrival) order.
  std::vector<JobRecord> unfinished() const;
  // Drops finished jobs older than the cutoff; returns how many.
  std::size_t purge_finished_before(double cutoff);

 private:
  // Under mutex_: the row (named when `name` is given); the caller raises the id
  // floor once it is committed.
  std::uint64_t insert_locked(int priority, const std::string& request, double now, const JobName* name);
  std::optional<NamedJob> find_named_locked(const std::string& name) const;
  std::optional<JobRecord> get_locked(std::uint64_t id) const;
  void exec(const char* sql);
  int user_version();
  // Throws StoreError when SQLite finds the file damaged.
  void check_integrity();
  // What an operator can do about a journal refused at open.
  std::string recovery_advice() const;
  // The highest id the journal has given out (its rows, or AUTOINCREMENT's counter).
  std::uint64_t highest_id();
  // Checks the journal against the recorded last id; a new journal continues after it.
  void reconcile_ids(bool journal_existed);

  mutable std::mutex mutex_;
  std::filesystem::path path_;
  JobIdFloor id_floor_;
  sqlite3* db_ = nullptr;  // owned; closed by the destructor
};

}  // namespace zkpipe::service
