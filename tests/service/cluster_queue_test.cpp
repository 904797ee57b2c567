// The cluster's PostgreSQL queue against a real PostgreSQL 15: migrations applied
// once by daemons starting together, claims disjoint under concurrency and by
// priority, an expired lease re-claimed and the old owner fenced off, each job
// assembled once, heartbeats holding leases and reporting cancelled jobs, a
// partition that outlives three leases failing its job, and reconnection after the
// server drops the connection. Runs when ZKPIPE_TEST_POSTGRES_URL names a server
// (tests/CMakeLists.txt's service.cluster_queue starts one); skipped otherwise.
#include <gtest/gtest.h>

#include <pqxx/pqxx>

#include <chrono>
#include <cstdlib>
#include <random>
#include <set>
#include <thread>

#include "service/cluster_queue.hpp"

namespace zkpipe::service {
namespace {

using namespace std::chrono_literals;

class ClusterQueueTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* url = std::getenv("ZKPIPE_TEST_POSTGRES_URL");
    if (url == nullptr || *url == '\0') GTEST_SKIP() << "ZKPIPE_TEST_POSTGRES_URL is not set";
    admin_url_ = url;
    // A database of its own per test: the queue's tables start empty.
    database_ = "zkpipe_test_" + std::to_string(std::random_device{}());
    pqxx::connection admin(admin_url_);
    pqxx::nontransaction(admin).exec("CREATE DATABASE " + database_);
    url_ = admin_url_.substr(0, admin_url_.rfind('/') + 1) + database_;
  }
  void TearDown() override {
    if (database_.empty()) return;
    pqxx::connection admin(admin_url_);
    pqxx::nontransaction(admin).exec("DROP DATABASE IF EXISTS " + database_ + " WITH (FORCE)");
  }

  ClusterOptions options(const std::string& daemon, double lease = 10) const {
    ClusterOptions o;
    o.url = url_;
    o.daemon = daemon;
    o.address = "unix:/" + daemon;
    o.lease_seconds = lease;
    o.reconnect_seconds = 10;
    return o;
  }

  std::string admin_url_;
  std::string database_;
  std::string url_;
};

const std::string kProof(192, '\x07');

TEST_F(ClusterQueueTest, MigrationsApplyOnceAndANewerSchemaIsRefused) {
  std::vector<std::thread> daemons;
  for (int i = 0; i < 4; ++i) daemons.emplace_back([&, i] { ClusterQueue q(options("d" + std::to_string(i))); });
  for (auto& t : daemons) t.join();
  pqxx::connection c(url_);
  pqxx::work w(c);
  EXPECT_EQ(w.exec("SELECT count(*) FROM zkpipe_schema_migrations")[0][0].as<int>(), ClusterQueue::schema_version());
  EXPECT_EQ(w.exec("SELECT count(*) FROM zkpipe_daemons")[0][0].as<int>(), 4);
  w.exec("INSERT INTO zkpipe_schema_migrations (version) VALUES (99)");
  w.commit();
  try {
    ClusterQueue q(options("new"));
    ADD_FAILURE() << "a database with a newer schema was accepted";
  } catch (const StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 99"), std::string::npos) << e.what();
  }
}

TEST_F(ClusterQueueTest, ConcurrentClaimsAreDisjointAndFollowPriority) {
  ClusterQueue a(options("a"));
  ClusterQueue b(options("b"));
  const auto low = a.insert(3, "low", 2, 0);
  const auto many = a.insert(2, "many", 6, 0);
  const auto critical = b.insert(0, "critical", 1, 0);
  // Highest priority first, then the oldest job.
  const auto first = a.claim(1, {});
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].job, critical);
  EXPECT_EQ(first[0].request, "critical");
  // Two daemons at once: SKIP LOCKED hands them disjoint rows.
  std::vector<ClaimedPartition> got_a, got_b;
  std::thread ta([&] { got_a = a.claim(3, {}); });
  std::thread tb([&] { got_b = b.claim(3, {}); });
  ta.join();
  tb.join();
  std::set<std::pair<std::uint64_t, std::uint32_t>> seen;
  for (const auto* got : {&got_a, &got_b}) {
    for (const auto& p : *got) {
      EXPECT_EQ(p.job, many);
      EXPECT_TRUE(seen.emplace(p.job, p.partition).second) << "partition " << p.partition << " claimed twice";
    }
  }
  EXPECT_EQ(seen.size(), 6u);
  // A job a daemon cannot serve is left to others.
  EXPECT_TRUE(a.claim(5, {low}).empty());
  EXPECT_EQ(b.claim(5, {}).size(), 2u);
}

TEST_F(ClusterQueueTest, AnExpiredLeaseIsReclaimedTheOldOwnerFencedAndTheJobAssembledOnce) {
  ClusterQueue dying(options("dying", 0.5));
  ClusterQueue other(options("other", 10));
  const auto job = other.insert(2, "req", 2, 0);
  ASSERT_EQ(dying.claim(2, {}).size(), 2u);
  EXPECT_TRUE(other.claim(2, {}).empty()) << "a held lease was taken";
  std::this_thread::sleep_for(700ms);
  const auto taken = other.claim(2, {});
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_TRUE(taken[0].reclaimed);
  // The stalled daemon's late proof is not recorded; the new owner's is, once.
  EXPECT_FALSE(dying.record(job, 0, kProof, ""));
  EXPECT_TRUE(other.record(job, 0, kProof, ""));
  EXPECT_FALSE(other.record(job, 0, kProof, ""));
  int calls = 0;
  auto assemble = [&](const JobRecord& record, const std::vector<ProvedPartition>& parts) {
    ++calls;
    EXPECT_EQ(record.request, "req");
    EXPECT_EQ(parts.size(), 2u);
    JobOutcome out;
    out.status = JobStatus::done;
    out.proof = parts[0].proof + parts[1].proof;
    return out;
  };
  EXPECT_FALSE(other.assemble(job, assemble, 1)) << "assembled with a partition missing";
  EXPECT_EQ(other.unassembled().size(), 0u);
  EXPECT_TRUE(other.record(job, 1, kProof, ""));
  EXPECT_EQ(other.unassembled(), std::vector<std::uint64_t>{job});
  EXPECT_TRUE(dying.assemble(job, assemble, 1));
  EXPECT_FALSE(other.assemble(job, assemble, 1));
  EXPECT_EQ(calls, 1);
  const auto record = other.get(job);
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->status, JobStatus::done);
  EXPECT_EQ(record->proof.size(), 384u);
  EXPECT_EQ(other.partitions_done(job), 2u);
  const ClusterStatus status = other.status();
  EXPECT_EQ(status.reclaimed, 2u);
  EXPECT_EQ(status.leased, 0u);
}

TEST_F(ClusterQueueTest, HeartbeatsHoldLeasesAndReportCancelledJobs) {
  ClusterQueue a(options("a", 0.6));
  ClusterQueue b(options("b", 10));
  const auto job = a.insert(2, "req", 1, 0);
  ASSERT_EQ(a.claim(1, {}).size(), 1u);
  for (int i = 0; i < 6; ++i) {
    std::this_thread::sleep_for(200ms);
    EXPECT_TRUE(a.heartbeat().empty());
    EXPECT_TRUE(b.claim(1, {}).empty()) << "a renewed lease was taken after " << (i + 1) * 200 << " ms";
  }
  JobOutcome cancelled;
  cancelled.status = JobStatus::cancelled;
  EXPECT_EQ(b.end(job, cancelled, 1), JobStatus::cancelled);
  EXPECT_EQ(a.heartbeat(), std::vector<std::uint64_t>{job});
  EXPECT_EQ(b.end(12345, cancelled, 1), std::nullopt);
}

TEST_F(ClusterQueueTest, APartitionThatOutlivesThreeLeasesFailsItsJob) {
  ClusterQueue q(options("q", 0.2));
  const auto job = q.insert(2, "req", 1, 0);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(q.claim(1, {}).size(), 1u) << "claim " << i;
    std::this_thread::sleep_for(300ms);
  }
  EXPECT_TRUE(q.claim(1, {}).empty());
  const auto record = q.get(job);
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->status, JobStatus::failed);
  EXPECT_NE(record->error.find("3 times"), std::string::npos) << record->error;
}

TEST_F(ClusterQueueTest, ReconnectsAfterTheServerDropsTheConnection) {
  ClusterQueue q(options("q"));
  const auto job = q.insert(2, "req", 1, 0);
  {
    pqxx::connection admin(admin_url_);
    pqxx::nontransaction(admin).exec(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" + database_ + "'");
  }
  const auto record = q.get(job);
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->request, "req");
  EXPECT_EQ(q.claim(1, {}).size(), 1u);
}

}  // namespace
}  // namespace zkpipe::service
