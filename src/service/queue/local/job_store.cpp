#include "service/queue/local/job_store.hpp"

#include <sqlite3.h>

namespace zkpipe::service::queue::local {

namespace {

// One prepared statement, finalized on scope exit.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql, const std::filesystem::path& path) : db_(db), path_(path) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) fail("prepare");
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, std::int64_t v) {
    check(sqlite3_bind_int64(stmt_, i, v), "bind");
    return *this;
  }
  Statement& bind(int i, double v) {
    check(sqlite3_bind_double(stmt_, i, v), "bind");
    return *this;
  }
  Statement& bind_text(int i, const std::string& v) {
    check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT), "bind");
    return *this;
  }
  Statement& bind_blob(int i, const std::string& v) {
    check(sqlite3_bind_blob(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT), "bind");
    return *this;
  }
  // True while rows come.
  bool step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc != SQLITE_DONE) fail("step");
    return false;
  }
  std::int64_t int_at(int col) const { return sqlite3_column_int64(stmt_, col); }
  double double_at(int col) const { return sqlite3_column_double(stmt_, col); }
  std::string bytes_at(int col) const {
    const void* p = sqlite3_column_blob(stmt_, col);
    const int n = sqlite3_column_bytes(stmt_, col);
    return p == nullptr ? std::string() : std::string(static_cast<const char*>(p), static_cast<std::size_t>(n));
  }

 private:
  void check(int rc, const char* what) {
    if (rc != SQLITE_OK) fail(what);
  }
  [[noreturn]] void fail(const char* what) const {
    throw StoreError(path_.string() + ": sqlite " + what + ": " + sqlite3_errmsg(db_));
  }

  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
  const std::filesystem::path& path_;
};

constexpr const char* kColumns =
    "id, priority, request, state, error, proof, timings, submitted_at, finished_at, attempts, proof_json, public_json";

JobRecord record_of(const Statement& s) {
  JobRecord r;
  r.id = static_cast<std::uint64_t>(s.int_at(0));
  r.priority = static_cast<int>(s.int_at(1));
  r.request = s.bytes_at(2);
  r.status = static_cast<JobStatus>(s.int_at(3));
  r.error = s.bytes_at(4);
  r.proof = s.bytes_at(5);
  r.timings = s.bytes_at(6);
  r.submitted_at = s.double_at(7);
  r.finished_at = s.double_at(8);
  r.attempts = static_cast<int>(s.int_at(9));
  r.proof_json = s.bytes_at(10);
  r.public_json = s.bytes_at(11);
  return r;
}

}  // namespace

JobStore::JobStore(const std::filesystem::path& path) : path_(path), id_floor_(JobIdFloor::beside(path)) {
  // Its write-ahead log alone is a journal too: SQLite would replay it into a new file.
  std::error_code ec;
  const bool existed = std::filesystem::exists(path, ec) || std::filesystem::exists(path.string() + "-wal", ec);
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    const std::string why = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw StoreError(path.string() + ": cannot open the job journal: " + why);
  }
  try {
    // Another daemon on the same data dir would run the same jobs twice.
    sqlite3_busy_timeout(db_, 5000);
    if (existed) check_integrity();
    exec("PRAGMA journal_mode=WAL");
    exec("PRAGMA synchronous=NORMAL");
    exec(
        "CREATE TABLE IF NOT EXISTS jobs ("
        " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        " priority INTEGER NOT NULL,"
        " request BLOB NOT NULL,"
        " state INTEGER NOT NULL,"
        " error TEXT,"
        " proof BLOB,"
        " timings BLOB,"
        " submitted_at REAL NOT NULL,"
        " finished_at REAL,"
        " attempts INTEGER NOT NULL DEFAULT 0)");
    exec("CREATE INDEX IF NOT EXISTS jobs_unfinished ON jobs(state) WHERE state IN (1, 2)");
    // Schema versions: 0/1 the table above; 2 adds circom jobs' JSON results; 3 a
    // client's name for a job (unique while the job is kept) and its request's digest.
    if (user_version() < 2) {
      exec("BEGIN IMMEDIATE");
      exec("ALTER TABLE jobs ADD COLUMN proof_json TEXT");
      exec("ALTER TABLE jobs ADD COLUMN public_json TEXT");
      exec("PRAGMA user_version = 2");
      exec("COMMIT");
    }
    if (user_version() < 3) {
      exec("BEGIN IMMEDIATE");
      exec("ALTER TABLE jobs ADD COLUMN name TEXT");
      exec("ALTER TABLE jobs ADD COLUMN name_digest BLOB");
      exec("CREATE UNIQUE INDEX jobs_name ON jobs(name) WHERE name IS NOT NULL");
      exec("PRAGMA user_version = 3");
      exec("COMMIT");
    }
    reconcile_ids(existed);
  } catch (...) {
    sqlite3_close(db_);
    throw;
  }
}

JobStore::~JobStore() { sqlite3_close(db_); }

void JobStore::exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    const std::string why = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    throw StoreError(path_.string() + ": " + why);
  }
}

int JobStore::user_version() {
  Statement s(db_, "PRAGMA user_version", path_);
  return s.step() ? static_cast<int>(s.int_at(0)) : 0;
}

void JobStore::check_integrity() {
  std::string verdict;
  auto first_row = [](void* out, int, char** values, char**) {
    *static_cast<std::string*>(out) = values[0] != nullptr ? values[0] : "";
    return 0;
  };
  const int rc = sqlite3_exec(db_, "PRAGMA integrity_check(1)", first_row, &verdict, nullptr);
  if (rc != SQLITE_OK) {
    const int primary = sqlite3_errcode(db_) & 0xff;
    if (primary != SQLITE_CORRUPT && primary != SQLITE_NOTADB) {
      throw StoreError(path_.string() + ": cannot check the job journal: " + sqlite3_errmsg(db_));
    }
    verdict = sqlite3_errmsg(db_);
  }
  if (verdict == "ok") return;
  // Its first line may only say which schema ("*** in database main ***").
  verdict.erase(0, verdict.find_last_of('\n') + 1);
  throw StoreError(path_.string() + ": the job journal is damaged (" + verdict + "); no job was read from it. " +
                   recovery_advice());
}

std::string JobStore::recovery_advice() const {
  std::string advice = "Restore it from a backup, or move it aside to start an empty journal (its jobs are then lost";
  if (id_floor_.value() != 0) advice += "; new ids continue after " + std::to_string(id_floor_.value());
  return advice + ")";
}

std::uint64_t JobStore::highest_id() {
  Statement s(db_,
              "SELECT MAX(IFNULL((SELECT MAX(seq) FROM sqlite_sequence WHERE name = 'jobs'), 0),"
              " IFNULL((SELECT MAX(id) FROM jobs), 0))",
              path_);
  s.step();
  return static_cast<std::uint64_t>(s.int_at(0));
}

void JobStore::reconcile_ids(bool journal_existed) {
  const std::uint64_t highest = highest_id();
  const std::uint64_t floor = id_floor_.value();
  if (highest >= floor) {
    // Also repairs a record one crash behind: it is raised after the insert commits.
    id_floor_.raise(highest);
    return;
  }
  if (journal_existed) {
    throw StoreError(path_.string() + ": the job journal ends at job " + std::to_string(highest) +
                     ", but clients were given ids up to " + std::to_string(floor) + " (" +
                     id_floor_.path().string() +
                     "): it has lost jobs (an older copy, a truncated file, or its -wal file removed). " +
                     recovery_advice());
  }
  // A journal started afresh: AUTOINCREMENT continues from its counter.
  exec("BEGIN IMMEDIATE");
  {
    Statement update(db_, "UPDATE sqlite_sequence SET seq = ? WHERE name = 'jobs'", path_);
    update.bind(1, static_cast<std::int64_t>(floor));
    update.step();
  }
  if (sqlite3_changes(db_) == 0) {
    Statement insert(db_, "INSERT INTO sqlite_sequence (name, seq) VALUES ('jobs', ?)", path_);
    insert.bind(1, static_cast<std::int64_t>(floor));
    insert.step();
  }
  exec("COMMIT");
}

std::uint64_t JobStore::insert(int priority, const std::string& request, double now) {
  std::lock_guard lock(mutex_);
  const std::uint64_t id = insert_locked(priority, request, now, nullptr);
  // Committed, and before the client hears of the id: no journal may give it out again.
  id_floor_.raise(id);
  return id;
}

std::uint64_t JobStore::insert_locked(int priority, const std::string& request, double now, const JobName* name) {
  Statement s(db_,
              "INSERT INTO jobs (priority, request, state, submitted_at, name, name_digest) VALUES (?, ?, 1, ?, ?, ?)",
              path_);
  s.bind(1, std::int64_t{priority}).bind_blob(2, request).bind(3, now);
  if (name != nullptr) s.bind_text(4, name->name).bind_blob(5, name->digest);  // else NULL, unnamed
  s.step();
  return static_cast<std::uint64_t>(sqlite3_last_insert_rowid(db_));
}

NamedJob JobStore::insert_named(int priority, const std::string& request, double now, const JobName& name) {
  std::lock_guard lock(mutex_);
  // Under the store's lock, and one daemon per journal: the look-up, the release of
  // the name and the insert are one transaction.
  exec("BEGIN IMMEDIATE");
  try {
    NamedJob out;
    if (std::optional<NamedJob> held = find_named_locked(name.name)) {
      const JobStatus status = get_locked(held->id)->status;
      if (name_answers_retry(status, held->digest, name.digest)) {
        exec("COMMIT");
        return *held;
      }
      Statement release(db_, "UPDATE jobs SET name = NULL, name_digest = NULL WHERE id = ?", path_);
      release.bind(1, static_cast<std::int64_t>(held->id));
      release.step();
      out.replaced = ReplacedJob{held->id, status};
    }
    out.id = insert_locked(priority, request, now, &name);
    out.digest = name.digest;
    exec("COMMIT");
    id_floor_.raise(out.id);
    return out;
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
}

std::optional<NamedJob> JobStore::find_named(const std::string& name) const {
  std::lock_guard lock(mutex_);
  return find_named_locked(name);
}

std::optional<NamedJob> JobStore::find_named_locked(const std::string& name) const {
  Statement s(db_, "SELECT id, name_digest FROM jobs WHERE name = ?", path_);
  s.bind_text(1, name);
  if (!s.step()) return std::nullopt;
  return NamedJob{static_cast<std::uint64_t>(s.int_at(0)), s.bytes_at(1), true, std::nullopt};
}

void JobStore::mark_running(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  Statement s(db_, "UPDATE jobs SET state = 2, attempts = attempts + 1 WHERE id = ?", path_);
  s.bind(1, static_cast<std::int64_t>(id));
  s.step();
}

void JobStore::requeue(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  Statement s(db_, "UPDATE jobs SET state = 1, attempts = MAX(attempts - 1, 0) WHERE id = ? AND state = 2", path_);
  s.bind(1, static_cast<std::int64_t>(id));
  s.step();
}

void JobStore::finish(std::uint64_t id, const JobOutcome& outcome, double now) {
  std::lock_guard lock(mutex_);
  Statement s(db_,
              "UPDATE jobs SET state = ?, error = ?, proof = ?, timings = ?, finished_at = ?, proof_json = ?, "
              "public_json = ? WHERE id = ? AND state IN (1, 2)",
              path_);
  s.bind(1, std::int64_t{static_cast<int>(outcome.status)})
      .bind_text(2, outcome.error)
      .bind_blob(3, outcome.proof)
      .bind_blob(4, outcome.timings)
      .bind(5, now)
      .bind_text(6, outcome.proof_json)
      .bind_text(7, outcome.public_json)
      .bind(8, static_cast<std::int64_t>(id));
  s.step();
}

std::optional<JobRecord> JobStore::get(std::uint64_t id) const {
  std::lock_guard lock(mutex_);
  return get_locked(id);
}

std::optional<JobRecord> JobStore::get_locked(std::uint64_t id) const {
  Statement s(db_, (std::string("SELECT ") + kColumns + " FROM jobs WHERE id = ?").c_str(), path_);
  s.bind(1, static_cast<std::int64_t>(id));
  if (!s.step()) return std::nullopt;
  return record_of(s);
}

std::vector<JobRecord> JobStore::unfinished() const {
  std::lock_guard lock(mutex_);
  Statement s(db_, (std::string("SELECT ") + kColumns + " FROM jobs WHERE state IN (1, 2) ORDER BY id").c_str(),
              path_);
  std::vector<JobRecord> out;
  while (s.step()) out.push_back(record_of(s));
  return out;
}

std::size_t JobStore::purge_finished_before(double cutoff) {
  std::lock_guard lock(mutex_);
  Statement s(db_, "DELETE FROM jobs WHERE state NOT IN (1, 2) AND finished_at < ?", path_);
  s.bind(1, cutoff);
  s.step();
  return static_cast<std::size_t>(sqlite3_changes(db_));
}

}  // namespace zkpipe::service::queue::local
