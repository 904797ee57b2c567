#include "service/queue/cluster/cluster_queue.hpp"

#include <pqxx/pqxx>

#include <algorithm>
#include <array>
#include <thread>

namespace zkpipe::service::queue::cluster {

namespace {

using Clock = std::chrono::steady_clock;

// Each entry is one schema version, applied in one transaction; never edited once
// released (a change is a new entry).
constexpr std::array<const char*, 2> kMigrations = {
    R"sql(
CREATE TABLE zkpipe_jobs (
  id            bigserial PRIMARY KEY,
  priority      integer NOT NULL,
  request       bytea NOT NULL,
  partitions    integer NOT NULL,
  state         integer NOT NULL DEFAULT 1,
  error         text NOT NULL DEFAULT '',
  proof         bytea NOT NULL DEFAULT '',
  proof_json    text NOT NULL DEFAULT '',
  public_json   text NOT NULL DEFAULT '',
  timings       bytea NOT NULL DEFAULT '',
  submitted_at  double precision NOT NULL,
  finished_at   double precision NOT NULL DEFAULT 0
);
CREATE INDEX zkpipe_jobs_unfinished ON zkpipe_jobs (priority, id) WHERE state IN (1, 2);
CREATE TABLE zkpipe_partitions (
  job_id       bigint NOT NULL REFERENCES zkpipe_jobs (id) ON DELETE CASCADE,
  idx          integer NOT NULL,
  state        integer NOT NULL DEFAULT 0,
  owner        text,
  lease_until  timestamptz,
  claims       integer NOT NULL DEFAULT 0,
  claimed_at   timestamptz,
  proof        bytea,
  public_json  text,
  proved_by    text,
  PRIMARY KEY (job_id, idx)
);
CREATE INDEX zkpipe_partitions_open ON zkpipe_partitions (job_id, idx) WHERE state <> 2;
CREATE INDEX zkpipe_partitions_owner ON zkpipe_partitions (owner) WHERE state = 1;
CREATE TABLE zkpipe_daemons (
  name        text PRIMARY KEY,
  address     text NOT NULL,
  started_at  timestamptz NOT NULL DEFAULT now(),
  heartbeat   timestamptz NOT NULL DEFAULT now()
);
)sql",
    // A client's name for a job (cuzk's request_id) and its request's digest.
    R"sql(
ALTER TABLE zkpipe_jobs ADD COLUMN name text;
ALTER TABLE zkpipe_jobs ADD COLUMN name_digest bytea;
CREATE UNIQUE INDEX zkpipe_jobs_name ON zkpipe_jobs (name) WHERE name IS NOT NULL;
)sql"};

// Partition states: 0 queued, 1 leased, 2 done (the SQL spells them out).
constexpr int kDone = 2;
constexpr int kMaxClaims = 3;
// Any constant: the advisory lock that serializes migrations across daemons.
constexpr std::int64_t kMigrationLock = 0x7a6b70697065;

// A new job's partitions, queued.
void insert_partitions(pqxx::work& w, std::int64_t job, std::uint32_t partitions) {
  w.exec_params("INSERT INTO zkpipe_partitions (job_id, idx) SELECT $1, generate_series(0, $2 - 1)", job,
                static_cast<std::int64_t>(partitions));
}

std::string to_hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::string from_hex(const std::string& hex) {
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  std::string out(hex.size() / 2, '\0');
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<char>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
  }
  return out;
}

// The job a client named so, if the queue has it.
std::optional<NamedJob> named_job(pqxx::work& w, const std::string& name) {
  const pqxx::result r = w.exec_params("SELECT id, encode(name_digest, 'hex') FROM zkpipe_jobs WHERE name = $1", name);
  if (r.empty()) return std::nullopt;
  return NamedJob{r[0][0].as<std::uint64_t>(), from_hex(r[0][1].as<std::string>()), true, std::nullopt};
}

// A lost server (restart, network) rather than a bad statement: worth reconnecting.
bool connection_lost(const std::exception& e) {
  if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr) return true;
  if (dynamic_cast<const pqxx::in_doubt_error*>(&e) != nullptr) return true;
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e)) {
    const std::string state = sql->sqlstate();
    // Class 08: connection exception; 57P: operator intervention (shutdown, restart).
    return state.rfind("08", 0) == 0 || state.rfind("57P", 0) == 0;
  }
  return false;
}

// "1,2,3": integers for an IN (…) list or an array literal.
template <class Int>
std::string id_list(const std::vector<Int>& ids) {
  std::string out;
  for (const auto id : ids) {
    if (!out.empty()) out += ',';
    out += std::to_string(id);
  }
  return out;
}

}  // namespace

struct ClusterQueue::Connection {
  explicit Connection(const std::string& url) : c(url) {}
  pqxx::connection c;
};

int ClusterQueue::schema_version() { return static_cast<int>(kMigrations.size()); }

void ClusterQueue::connect_locked() {
  try {
    connection_ = std::make_unique<Connection>(options_.url);
  } catch (const pqxx::broken_connection&) {
    throw;
  } catch (const std::exception& e) {
    throw StoreError("the job queue at " + options_.url + ": " + e.what());
  }
}

void ClusterQueue::migrate_locked() {
  pqxx::work w(connection_->c);
  w.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLock);
  w.exec("CREATE TABLE IF NOT EXISTS zkpipe_schema_migrations ("
         " version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())");
  const int applied = w.exec("SELECT coalesce(max(version), 0) FROM zkpipe_schema_migrations")[0][0].as<int>();
  if (applied > schema_version()) {
    throw StoreError("the job queue at " + options_.url + " has schema version " + std::to_string(applied) +
                     "; this zkpipe knows up to " + std::to_string(schema_version()) + " (upgrade zkpipe)");
  }
  for (int v = applied; v < schema_version(); ++v) {
    w.exec(kMigrations[static_cast<std::size_t>(v)]);
    w.exec_params("INSERT INTO zkpipe_schema_migrations (version) VALUES ($1)", v + 1);
  }
  w.commit();
}

template <class F>
auto ClusterQueue::with_retry(bool idempotent, F&& f) {
  std::lock_guard lock(mutex_);
  const auto give_up = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(options_.reconnect_seconds));
  auto delay = std::chrono::milliseconds(100);
  for (;;) {
    try {
      if (connection_ == nullptr) connect_locked();
      return f(connection_->c);
    } catch (const std::exception& e) {
      if (!connection_lost(e)) {
        if (dynamic_cast<const StoreError*>(&e) != nullptr) throw;
        throw StoreError("the job queue at " + options_.url + ": " + e.what());
      }
      const bool had_connection = connection_ != nullptr;
      connection_.reset();
      if (!idempotent && had_connection) {
        throw StoreError("the connection to the job queue was lost during the call (" + std::string(e.what()) +
                         "); it may or may not have taken effect");
      }
      if (Clock::now() + delay > give_up) {
        throw StoreError("the job queue at " + options_.url + " is unreachable: " + e.what());
      }
      std::this_thread::sleep_for(delay);
      delay = std::min(delay * 2, std::chrono::milliseconds(5000));
    }
  }
}

ClusterQueue::ClusterQueue(ClusterOptions options) : options_(std::move(options)) {
  with_retry(true, [&](pqxx::connection& c) {
    migrate_locked();
    pqxx::work w(c);
    w.exec_params(
        "INSERT INTO zkpipe_daemons (name, address) VALUES ($1, $2) "
        "ON CONFLICT (name) DO UPDATE SET address = $2, started_at = now(), heartbeat = now()",
        options_.daemon, options_.address);
    // A daemon restarted under its old name gives back what its previous life
    // leased, rather than renewing leases nobody works on.
    w.exec_params("UPDATE zkpipe_partitions SET state = 0, owner = NULL, lease_until = NULL "
                  "WHERE owner = $1 AND state = 1",
                  options_.daemon);
    w.commit();
    return 0;
  });
}

ClusterQueue::~ClusterQueue() = default;

std::uint64_t ClusterQueue::insert(int priority, const std::string& request, std::uint32_t partitions, double now) {
  return with_retry(false, [&](pqxx::connection& c) {
    pqxx::work w(c);
    const auto id = w.exec_params("INSERT INTO zkpipe_jobs (priority, request, partitions, submitted_at) "
                                  "VALUES ($1, decode($2, 'hex'), $3, $4) RETURNING id",
                                  priority, to_hex(request), static_cast<std::int64_t>(partitions), now)[0][0]
                        .as<std::int64_t>();
    insert_partitions(w, id, partitions);
    w.commit();
    return static_cast<std::uint64_t>(id);
  });
}

NamedJob ClusterQueue::insert_named(int priority, const std::string& request, std::uint32_t partitions, double now,
                                    const JobName& name) {
  return with_retry(false, [&](pqxx::connection& c) {
    // Another daemon may take the name between this one's look-up and insert: the
    // insert then finds it taken, and the look-up runs again on what that daemon
    // committed.
    for (int attempt = 0;; ++attempt) {
      pqxx::work w(c);
      NamedJob out;
      const pqxx::result held = w.exec_params(
          "SELECT id, encode(name_digest, 'hex'), state FROM zkpipe_jobs WHERE name = $1 FOR UPDATE", name.name);
      if (!held.empty()) {
        const auto held_id = held[0][0].as<std::uint64_t>();
        const auto status = static_cast<JobStatus>(held[0][2].as<int>());
        if (name_answers_retry(status, from_hex(held[0][1].as<std::string>()), name.digest)) {
          w.commit();
          return NamedJob{held_id, name.digest, true, std::nullopt};
        }
        w.exec_params("UPDATE zkpipe_jobs SET name = NULL, name_digest = NULL WHERE id = $1",
                      static_cast<std::int64_t>(held_id));
        out.replaced = ReplacedJob{held_id, status};
      }
      const pqxx::result inserted = w.exec_params(
          "INSERT INTO zkpipe_jobs (priority, request, partitions, submitted_at, name, name_digest) "
          "VALUES ($1, decode($2, 'hex'), $3, $4, $5, decode($6, 'hex')) "
          "ON CONFLICT (name) WHERE name IS NOT NULL DO NOTHING RETURNING id",
          priority, to_hex(request), static_cast<std::int64_t>(partitions), now, name.name, to_hex(name.digest));
      if (inserted.empty()) {
        w.abort();
        if (attempt < 3) continue;
        throw StoreError("the job name " + name.name + " kept changing hands while it was submitted");
      }
      const auto id = inserted[0][0].as<std::int64_t>();
      insert_partitions(w, id, partitions);
      w.commit();
      out.id = static_cast<std::uint64_t>(id);
      out.digest = name.digest;
      return out;
    }
  });
}

std::optional<NamedJob> ClusterQueue::find_named(const std::string& name) {
  return with_retry(true, [&](pqxx::connection& c) -> std::optional<NamedJob> {
    pqxx::work w(c);
    return named_job(w, name);
  });
}

std::optional<JobRecord> ClusterQueue::get(std::uint64_t id) {
  return with_retry(true, [&](pqxx::connection& c) -> std::optional<JobRecord> {
    pqxx::work w(c);
    const pqxx::result r = w.exec_params(
        "SELECT id, priority, encode(request, 'hex'), state, error, encode(proof, 'hex'), encode(timings, 'hex'), "
        "submitted_at, finished_at, proof_json, public_json FROM zkpipe_jobs WHERE id = $1",
        static_cast<std::int64_t>(id));
    if (r.empty()) return std::nullopt;
    JobRecord out;
    out.id = r[0][0].as<std::uint64_t>();
    out.priority = r[0][1].as<int>();
    out.request = from_hex(r[0][2].as<std::string>());
    out.status = static_cast<JobStatus>(r[0][3].as<int>());
    out.error = r[0][4].as<std::string>();
    out.proof = from_hex(r[0][5].as<std::string>());
    out.timings = from_hex(r[0][6].as<std::string>());
    out.submitted_at = r[0][7].as<double>();
    out.finished_at = r[0][8].as<double>();
    out.proof_json = r[0][9].as<std::string>();
    out.public_json = r[0][10].as<std::string>();
    return out;
  });
}

std::optional<JobStatus> ClusterQueue::state(std::uint64_t id) {
  return with_retry(true, [&](pqxx::connection& c) -> std::optional<JobStatus> {
    pqxx::work w(c);
    const pqxx::result r =
        w.exec_params("SELECT state FROM zkpipe_jobs WHERE id = $1", static_cast<std::int64_t>(id));
    if (r.empty()) return std::nullopt;
    return static_cast<JobStatus>(r[0][0].as<int>());
  });
}

std::uint32_t ClusterQueue::partitions_done(std::uint64_t id) {
  return with_retry(true, [&](pqxx::connection& c) {
    pqxx::work w(c);
    return w.exec_params("SELECT count(*) FROM zkpipe_partitions WHERE job_id = $1 AND state = 2",
                         static_cast<std::int64_t>(id))[0][0]
        .as<std::uint32_t>();
  });
}

std::optional<JobStatus> ClusterQueue::end(std::uint64_t id, const JobOutcome& outcome, double now) {
  return with_retry(true, [&](pqxx::connection& c) -> std::optional<JobStatus> {
    pqxx::work w(c);
    w.exec_params("UPDATE zkpipe_jobs SET state = $2, error = $3, finished_at = $4 WHERE id = $1 AND state IN (1, 2)",
                  static_cast<std::int64_t>(id), static_cast<int>(outcome.status), outcome.error, now);
    const pqxx::result r = w.exec_params("SELECT state FROM zkpipe_jobs WHERE id = $1", static_cast<std::int64_t>(id));
    w.commit();
    if (r.empty()) return std::nullopt;
    return static_cast<JobStatus>(r[0][0].as<int>());
  });
}

std::vector<ClaimedPartition> ClusterQueue::claim(std::size_t max_partitions,
                                                  const std::vector<std::uint64_t>& skip) {
  if (max_partitions == 0) return {};
  const std::string skipped = "'{" + id_list(skip) + "}'::bigint[]";
  return with_retry(true, [&](pqxx::connection& c) {
    pqxx::work w(c);
    // A partition whose lease ran out kMaxClaims times killed (or stalled) every
    // daemon that took it: it may be what kills them, so its job fails instead.
    w.exec_params(
        "UPDATE zkpipe_jobs SET state = 4, finished_at = extract(epoch FROM now()),"
        " error = 'a partition''s lease expired ' || $1::int || ' times: the daemons proving it died or stalled' "
        "WHERE state IN (1, 2) AND id IN (SELECT job_id FROM zkpipe_partitions"
        " WHERE state = 1 AND lease_until < now() AND claims >= $1::int)",
        kMaxClaims);
    const pqxx::result claimed = w.exec_params(
        "WITH c AS ("
        "  SELECT p.job_id, p.idx FROM zkpipe_partitions p JOIN zkpipe_jobs j ON j.id = p.job_id"
        "  WHERE j.state IN (1, 2) AND (p.state = 0 OR (p.state = 1 AND p.lease_until < now()))"
        "  AND NOT (j.id = ANY (" + skipped + "))"
        "  ORDER BY j.priority, j.id, p.idx LIMIT $2"
        "  FOR UPDATE OF p SKIP LOCKED) "
        "UPDATE zkpipe_partitions p SET state = 1, owner = $1, claims = p.claims + 1, claimed_at = now(),"
        "  lease_until = now() + make_interval(secs => $3) "
        "FROM c WHERE p.job_id = c.job_id AND p.idx = c.idx "
        "RETURNING p.job_id, p.idx, p.claims",
        options_.daemon, static_cast<std::int64_t>(max_partitions), options_.lease_seconds);
    std::vector<ClaimedPartition> out;
    std::vector<std::uint64_t> jobs;
    for (const auto& row : claimed) {
      ClaimedPartition p;
      p.job = row[0].as<std::uint64_t>();
      p.partition = row[1].as<std::uint32_t>();
      p.reclaimed = row[2].as<int>() > 1;
      out.push_back(std::move(p));
      jobs.push_back(out.back().job);
    }
    if (!out.empty()) {
      std::sort(jobs.begin(), jobs.end());
      jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
      w.exec("UPDATE zkpipe_jobs SET state = 2 WHERE state = 1 AND id IN (" + id_list(jobs) + ")");
      const pqxx::result requests =
          w.exec("SELECT id, priority, encode(request, 'hex') FROM zkpipe_jobs WHERE id IN (" + id_list(jobs) + ")");
      for (const auto& row : requests) {
        const auto id = row[0].as<std::uint64_t>();
        const std::string request = from_hex(row[2].as<std::string>());
        for (auto& p : out) {
          if (p.job != id) continue;
          p.priority = row[1].as<int>();
          p.request = request;
        }
      }
      std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return std::tie(a.priority, a.job, a.partition) < std::tie(b.priority, b.job, b.partition);
      });
    }
    w.commit();
    return out;
  });
}

std::vector<std::uint64_t> ClusterQueue::heartbeat() {
  return with_retry(true, [&](pqxx::connection& c) {
    pqxx::work w(c);
    w.exec_params("UPDATE zkpipe_partitions SET lease_until = now() + make_interval(secs => $2) "
                  "WHERE owner = $1 AND state = 1",
                  options_.daemon, options_.lease_seconds);
    w.exec_params("UPDATE zkpipe_daemons SET heartbeat = now() WHERE name = $1", options_.daemon);
    const pqxx::result ended = w.exec_params(
        "SELECT DISTINCT p.job_id FROM zkpipe_partitions p JOIN zkpipe_jobs j ON j.id = p.job_id "
        "WHERE p.owner = $1 AND p.state = 1 AND j.state NOT IN (1, 2)",
        options_.daemon);
    w.commit();
    std::vector<std::uint64_t> out;
    for (const auto& row : ended) out.push_back(row[0].as<std::uint64_t>());
    return out;
  });
}

void ClusterQueue::release(std::uint64_t job, const std::vector<std::uint32_t>& partitions) {
  if (partitions.empty()) return;
  const std::string list = id_list(partitions);
  with_retry(true, [&](pqxx::connection& c) {
    pqxx::work w(c);
    w.exec_params("UPDATE zkpipe_partitions SET state = 0, owner = NULL, lease_until = NULL "
                  "WHERE job_id = $1 AND owner = $2 AND state = 1 AND idx IN (" + list + ")",
                  static_cast<std::int64_t>(job), options_.daemon);
    w.commit();
    return 0;
  });
}

bool ClusterQueue::record(std::uint64_t job, std::uint32_t partition, const std::string& proof,
                          const std::string& public_json) {
  return with_retry(true, [&](pqxx::connection& c) {
    pqxx::work w(c);
    const pqxx::result r = w.exec_params(
        "UPDATE zkpipe_partitions SET state = 2, proof = decode($4, 'hex'), public_json = $5, proved_by = $3,"
        " owner = NULL, lease_until = NULL WHERE job_id = $1 AND idx = $2 AND state = 1 AND owner = $3",
        static_cast<std::int64_t>(job), static_cast<std::int64_t>(partition), options_.daemon, to_hex(proof),
        public_json);
    w.commit();
    return r.affected_rows() == 1;
  });
}

bool ClusterQueue::assemble(std::uint64_t job, const Assembler& assemble, double now) {
  return with_retry(true, [&](pqxx::connection& c) {
    pqxx::work w(c);
    const pqxx::result head = w.exec_params(
        "SELECT state, encode(request, 'hex'), submitted_at FROM zkpipe_jobs WHERE id = $1 FOR UPDATE",
        static_cast<std::int64_t>(job));
    if (head.empty() || (head[0][0].as<int>() != 1 && head[0][0].as<int>() != 2)) return false;
    JobRecord record;
    record.id = job;
    record.request = from_hex(head[0][1].as<std::string>());
    record.submitted_at = head[0][2].as<double>();
    const pqxx::result parts = w.exec_params(
        "SELECT state, encode(proof, 'hex'), coalesce(public_json, '') FROM zkpipe_partitions "
        "WHERE job_id = $1 ORDER BY idx",
        static_cast<std::int64_t>(job));
    std::vector<ProvedPartition> proofs;
    for (const auto& row : parts) {
      if (row[0].as<int>() != kDone) return false;
      proofs.push_back({from_hex(row[1].as<std::string>()), row[2].as<std::string>()});
    }
    if (parts.empty()) return false;
    const JobOutcome outcome = assemble(record, proofs);
    w.exec_params("UPDATE zkpipe_jobs SET state = $2, error = $3, proof = decode($4, 'hex'), proof_json = $5,"
                  " public_json = $6, timings = decode($7, 'hex'), finished_at = $8 WHERE id = $1",
                  static_cast<std::int64_t>(job), static_cast<int>(outcome.status), outcome.error,
                  to_hex(outcome.proof), outcome.proof_json, outcome.public_json, to_hex(outcome.timings), now);
    w.commit();
    return true;
  });
}

ClusterStatus ClusterQueue::status() {
  return with_retry(true, [&](pqxx::connection& c) {
    pqxx::work w(c);
    ClusterStatus out;
    for (const auto& row : w.exec(
             "SELECT d.name, d.address, extract(epoch FROM now() - d.heartbeat),"
             " (SELECT count(*) FROM zkpipe_partitions p WHERE p.owner = d.name AND p.state = 1),"
             " (SELECT count(*) FROM zkpipe_partitions p WHERE p.proved_by = d.name) "
             "FROM zkpipe_daemons d ORDER BY d.name")) {
      out.daemons.push_back({row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<double>(),
                             row[3].as<std::uint64_t>(), row[4].as<std::uint64_t>()});
    }
    for (const auto& row :
         w.exec("SELECT priority, count(*) FROM zkpipe_jobs WHERE state IN (1, 2) GROUP BY priority ORDER BY 1")) {
      out.queue.emplace_back(row[0].as<int>(), row[1].as<std::uint64_t>());
    }
    const pqxx::result counts = w.exec(
        "SELECT count(*) FILTER (WHERE p.state = 1 AND j.state IN (1, 2)),"
        " count(*) FILTER (WHERE p.state = 0 AND j.state IN (1, 2)), count(*) FILTER (WHERE p.claims > 1) "
        "FROM zkpipe_partitions p JOIN zkpipe_jobs j ON j.id = p.job_id");
    out.leased = counts[0][0].as<std::uint64_t>();
    out.queued_partitions = counts[0][1].as<std::uint64_t>();
    out.reclaimed = counts[0][2].as<std::uint64_t>();
    w.commit();
    return out;
  });
}

std::vector<std::uint64_t> ClusterQueue::unassembled() {
  return with_retry(true, [&](pqxx::connection& c) {
    pqxx::work w(c);
    const pqxx::result r = w.exec(
        "SELECT j.id FROM zkpipe_jobs j WHERE j.state IN (1, 2) AND NOT EXISTS "
        "(SELECT 1 FROM zkpipe_partitions p WHERE p.job_id = j.id AND p.state <> 2)");
    w.commit();
    std::vector<std::uint64_t> out;
    for (const auto& row : r) out.push_back(row[0].as<std::uint64_t>());
    return out;
  });
}

std::size_t ClusterQueue::purge_finished_before(double cutoff) {
  return with_retry(true, [&](pqxx::connection& c) {
    pqxx::work w(c);
    const pqxx::result r =
        w.exec_params("DELETE FROM zkpipe_jobs WHERE state NOT IN (1, 2) AND finished_at < $1", cutoff);
    w.commit();
    return static_cast<std::size_t>(r.affected_rows());
  });
}

}  // namespace zkpipe::service::queue::cluster
