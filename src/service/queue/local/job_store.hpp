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
#include <string>
#include <vector>

#include "service/queue/job_record.hpp"
#include "service/queue/local/job_id_floor.hpp"

struct sqlite3;

namespace zkpipe::service::queue::local {

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

}  // namespace zkpipe::service::queue::local
