// The cluster's PostgreSQL queue against a real PostgreSQL 15: migrations applied
// once by daemons starting together, claims disjoint under concurrency and by
// priority, an expired lease re-claimed and the old owner fenced off, each job
// assembled once, heartbeats holding leases and reporting cancelled jobs, a
// partition that outlives three leases failing its job, reconnection after the
// server drops the connection; and two proving services on one queue: a drained
// daemon gives its partitions back and the other completes the job, a circom job
// through the queue, a Filecoin job whose documents travel in the queue, and a Window
// PoSt, a Winning PoSt and a SnapDeals update proved from their vanilla proofs through
// the queue. Runs
// when ZKPIPE_TEST_POSTGRES_URL names a server (tests/CMakeLists.txt's
// service.cluster_queue starts one); skipped otherwise.
#include <gtest/gtest.h>

#include <pqxx/pqxx>
#include <stdlib.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <set>
#include <thread>

#include "formats/snarkjs_json.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "circuits/porep_like/porep_circuit.hpp"
#include "io/bounded_read.hpp"
#include "service/proving_service.hpp"
#include "service/queue/cluster/cluster_queue.hpp"
#include "circuits/filecoin/synthetic/synthetic_post.hpp"
#include "filecoin_job_util.hpp"
#include "io/temp_dir.hpp"
#include "job_calls.hpp"

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

  queue::cluster::ClusterOptions options(const std::string& daemon, double lease = 10) const {
    queue::cluster::ClusterOptions o;
    o.url = url_;
    o.daemon = daemon;
    o.address = "unix:/" + daemon;
    o.lease_seconds = lease;
    o.reconnect_seconds = 10;
    return o;
  }

  // A daemon on the queue that proves on the CPU, its data dir and parameter root in `dir`.
  std::unique_ptr<ProvingService> cpu_daemon(const std::filesystem::path& dir, const std::string& name) const {
    config::ServiceConfig c;
    c.data_dir = dir / "data";
    std::filesystem::create_directories(c.data_dir);
    c.parameter_roots = {dir};
    c.synthesis_workers = 1;
    c.queue = url_;
    c.daemon_name = name;
    BackendSetup backend;
    backend.backends = {std::make_shared<groth16::CpuProver>()};
    return std::make_unique<ProvingService>(c, std::move(backend));
  }

  // A PoSt through the queue: a key set up for `proof`'s circuit, its vanilla proofs
  // stored with the job, the partition claimed, proved and assembled by the daemon,
  // the proof verifying.
  void expect_post_proved_through_queue(
      const filecoin::post::PostProof& proof,
      testing::PostPartitionInput (*partition)(std::uint64_t, const std::filesystem::path&)) const {
    const io::testing::TempDir dir;
    const std::filesystem::path key = std::filesystem::canonical(dir.path()) / "post-2k.zkp";
    const filecoin::post::FallbackPostCircuit shape = filecoin::synthetic::synthetic_post(proof, 1, 1);
    groth16::write_parameter_file(key,
                                  groth16::setup(groth16::record_matrices(shape), groth16::ToxicWaste::from_seed(3)));
    const testing::PostPartitionInput input = partition(21, key);
    v1::SubmitProofRequest request;
    *request.mutable_filecoin_post() = input.job;
    expect_proved_through_queue(request, key, input.circuit, 120);
  }

  // `request` (of one partition, its key file `key` beside it) proved by a CPU daemon
  // on the queue within `seconds`, the proof verifying against `circuit`.
  void expect_proved_through_queue(const v1::SubmitProofRequest& request, const std::filesystem::path& key,
                                   const r1cs::PartitionedCircuit& circuit, int seconds) const {
    auto s = cpu_daemon(key.parent_path(), "filecoin");
    const v1::AwaitProofResponse r = await_end(*s, s->submit(request), seconds);
    ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
    EXPECT_EQ(r.partitions(), 1u);
    EXPECT_TRUE(testing::proofs_verify(r.proof(), key, circuit));
  }

  // The job's answer once it is done or failed, or after `seconds` of waiting.
  static v1::AwaitProofResponse await_end(ProvingService& s, std::uint64_t id, int seconds) {
    v1::AwaitProofResponse r;
    for (int i = 0; i < seconds; ++i) {
      r = s.await(id, std::chrono::seconds(1));
      if (r.state() == v1::JOB_STATE_DONE || r.state() == v1::JOB_STATE_FAILED) break;
    }
    return r;
  }

  std::string admin_url_;
  std::string database_;
  std::string url_;
};

const std::string kProof(192, '\x07');

TEST_F(ClusterQueueTest, MigrationsApplyOnceAndANewerSchemaIsRefused) {
  std::vector<std::thread> daemons;
  for (int i = 0; i < 4; ++i) {
    // Not "d" + std::to_string(i): g++ 12 warns falsely on that (-Wstringop-overflow).
    daemons.emplace_back([&, i] {
      queue::cluster::ClusterQueue q(options(std::string("d").append(std::to_string(i))));
    });
  }
  for (auto& t : daemons) t.join();
  pqxx::connection c(url_);
  pqxx::work w(c);
  EXPECT_EQ(w.exec("SELECT count(*) FROM zkpipe_schema_migrations")[0][0].as<int>(),
            queue::cluster::ClusterQueue::schema_version());
  EXPECT_EQ(w.exec("SELECT count(*) FROM zkpipe_daemons")[0][0].as<int>(), 4);
  w.exec("INSERT INTO zkpipe_schema_migrations (version) VALUES (99)");
  w.commit();
  try {
    queue::cluster::ClusterQueue q(options("new"));
    ADD_FAILURE() << "a database with a newer schema was accepted";
  } catch (const queue::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 99"), std::string::npos) << e.what();
  }
}

// A client's name for a job: daemons racing to submit it queue one job, with its
// partitions; the name and its digest are found by any daemon.
TEST_F(ClusterQueueTest, ANamedJobIsQueuedOnceWhoeverSubmitsIt) {
  std::vector<queue::NamedJob> got(4);
  std::vector<std::thread> daemons;
  for (int i = 0; i < 4; ++i) {
    daemons.emplace_back([&, i] {
      queue::cluster::ClusterQueue q(options("d" + std::to_string(i)));
      got[static_cast<std::size_t>(i)] = q.insert_named(2, "request", 3, 1.0, {"cuzk:sector-9", std::string("\x01\x00d", 3)});
    });
  }
  for (auto& t : daemons) t.join();
  int inserted = 0;
  for (const queue::NamedJob& job : got) {
    EXPECT_EQ(job.id, got[0].id);
    EXPECT_EQ(job.digest, std::string("\x01\x00d", 3));
    inserted += job.existed ? 0 : 1;
  }
  EXPECT_EQ(inserted, 1);
  queue::cluster::ClusterQueue q(options("reader"));
  const std::optional<queue::NamedJob> found = q.find_named("cuzk:sector-9");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->id, got[0].id);
  EXPECT_FALSE(q.find_named("cuzk:sector-10").has_value());
  EXPECT_NE(q.insert_named(2, "request", 3, 1.0, {"cuzk:sector-10", "x"}).id, got[0].id);
  pqxx::connection c(url_);
  pqxx::work w(c);
  EXPECT_EQ(w.exec("SELECT count(*) FROM zkpipe_jobs")[0][0].as<int>(), 2);
  EXPECT_EQ(w.exec("SELECT count(*) FROM zkpipe_partitions")[0][0].as<int>(), 6);
}

// Another request under a queued job's name, from daemons racing: one new job takes
// the name (the queued one replaced, its row kept), the others answer with it. A
// failed job's name goes to a new job on a retry of the same request; a proved one
// answers it.
TEST_F(ClusterQueueTest, ANamedJobMovesToAnotherRequestOnceWhoeverSubmitsIt) {
  queue::cluster::ClusterQueue q(options("first"));
  const queue::NamedJob first = q.insert_named(2, "request", 1, 1.0, {"cuzk:wpost-7", "digest-a"});
  std::vector<queue::NamedJob> got(4);
  std::vector<std::thread> daemons;
  for (int i = 0; i < 4; ++i) {
    daemons.emplace_back([&, i] {
      queue::cluster::ClusterQueue d(options("d" + std::to_string(i)));
      got[static_cast<std::size_t>(i)] = d.insert_named(2, "request", 1, 2.0, {"cuzk:wpost-7", "digest-b"});
    });
  }
  for (auto& t : daemons) t.join();
  int inserted = 0;
  for (const queue::NamedJob& job : got) {
    EXPECT_EQ(job.id, got[0].id);
    EXPECT_NE(job.id, first.id);
    if (!job.existed) {
      ++inserted;
      ASSERT_TRUE(job.replaced.has_value());
      EXPECT_EQ(job.replaced->id, first.id);
      EXPECT_EQ(job.replaced->status, queue::JobStatus::queued);
    }
  }
  EXPECT_EQ(inserted, 1);
  EXPECT_EQ(q.find_named("cuzk:wpost-7")->id, got[0].id);
  EXPECT_TRUE(q.get(first.id).has_value()) << "the replaced job's row is kept";

  q.end(got[0].id, queue::unsuccessful(queue::JobStatus::failed, "it broke"), 3.0);
  const queue::NamedJob retried = q.insert_named(2, "request", 1, 4.0, {"cuzk:wpost-7", "digest-b"});
  EXPECT_FALSE(retried.existed);
  EXPECT_NE(retried.id, got[0].id);
  ASSERT_TRUE(retried.replaced.has_value());
  EXPECT_EQ(retried.replaced->status, queue::JobStatus::failed);
}

TEST_F(ClusterQueueTest, ConcurrentClaimsAreDisjointAndFollowPriority) {
  queue::cluster::ClusterQueue a(options("a"));
  queue::cluster::ClusterQueue b(options("b"));
  const auto low = a.insert(3, "low", 2, 0);
  const auto many = a.insert(2, "many", 6, 0);
  const auto critical = b.insert(0, "critical", 1, 0);
  // Highest priority first, then the oldest job.
  const auto first = a.claim(1, {});
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].job, critical);
  EXPECT_EQ(first[0].request, "critical");
  // Two daemons at once: SKIP LOCKED hands them disjoint rows.
  std::vector<queue::cluster::ClaimedPartition> got_a, got_b;
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
  queue::cluster::ClusterQueue dying(options("dying", 0.5));
  queue::cluster::ClusterQueue other(options("other", 10));
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
  auto assemble = [&](const queue::JobRecord& record, const std::vector<queue::cluster::ProvedPartition>& parts) {
    ++calls;
    EXPECT_EQ(record.request, "req");
    EXPECT_EQ(parts.size(), 2u);
    queue::JobOutcome out;
    out.status = queue::JobStatus::done;
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
  EXPECT_EQ(record->status, queue::JobStatus::done);
  EXPECT_EQ(record->proof.size(), 384u);
  EXPECT_EQ(other.partitions_done(job), 2u);
  const queue::cluster::ClusterStatus status = other.status();
  EXPECT_EQ(status.reclaimed, 2u);
  EXPECT_EQ(status.leased, 0u);
}

// Heartbeats every 200 ms hold a 2 s lease for 3 s, longer than the lease itself: a
// heartbeat would have to come ten times late (a loaded machine) for it to lapse.
TEST_F(ClusterQueueTest, HeartbeatsHoldLeasesAndReportCancelledJobs) {
  queue::cluster::ClusterQueue a(options("a", 2));
  queue::cluster::ClusterQueue b(options("b", 10));
  const auto job = a.insert(2, "req", 1, 0);
  ASSERT_EQ(a.claim(1, {}).size(), 1u);
  for (int i = 0; i < 15; ++i) {
    std::this_thread::sleep_for(200ms);
    EXPECT_TRUE(a.heartbeat().empty());
    EXPECT_TRUE(b.claim(1, {}).empty()) << "a renewed lease was taken after " << (i + 1) * 200 << " ms";
  }
  queue::JobOutcome cancelled;
  cancelled.status = queue::JobStatus::cancelled;
  EXPECT_EQ(b.end(job, cancelled, 1), queue::JobStatus::cancelled);
  EXPECT_EQ(a.heartbeat(), std::vector<std::uint64_t>{job});
  EXPECT_EQ(b.end(12345, cancelled, 1), std::nullopt);
}

TEST_F(ClusterQueueTest, APartitionThatOutlivesThreeLeasesFailsItsJob) {
  queue::cluster::ClusterQueue q(options("q", 0.2));
  const auto job = q.insert(2, "req", 1, 0);
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(q.claim(1, {}).size(), 1u) << "claim " << i;
    std::this_thread::sleep_for(300ms);
  }
  EXPECT_TRUE(q.claim(1, {}).empty());
  const auto record = q.get(job);
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->status, queue::JobStatus::failed);
  EXPECT_NE(record->error.find("3 times"), std::string::npos) << record->error;
}

TEST_F(ClusterQueueTest, ReconnectsAfterTheServerDropsTheConnection) {
  queue::cluster::ClusterQueue q(options("q"));
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

TEST_F(ClusterQueueTest, ADrainedDaemonGivesItsPartitionsBackAndAnotherFinishes) {
  namespace fs = std::filesystem;
  std::string pattern = (fs::temp_directory_path() / "zkpipe-cluster-XXXXXX").string();
  const fs::path dir = ::mkdtemp(pattern.data());
  const fs::path key = dir / "tiny.zkp";
  const porep_like::PorepLikeCircuit setup_circuit(porep_like::find_preset("tiny"), 1, 1);
  groth16::write_parameter_file(
      key, groth16::setup(groth16::record_matrices(setup_circuit), groth16::ToxicWaste::from_seed(5)));
  auto daemon = [&](const std::string& name) {
    config::ServiceConfig c;
    c.data_dir = dir / name;
    fs::create_directories(c.data_dir);
    c.parameter_roots = {dir};
    c.synthesis_workers = 1;
    c.queue = url_;
    c.daemon_name = name;
    c.lease_seconds = 5;
    c.heartbeat_seconds = 0.5;
    BackendSetup backend;
    backend.backends = {std::make_shared<groth16::CpuProver>()};
    return std::make_unique<ProvingService>(c, std::move(backend));
  };
  constexpr std::uint32_t kPartitions = 24;
  v1::SubmitProofRequest request;
  request.mutable_porep()->set_preset("tiny");
  request.mutable_porep()->set_seed(3);
  request.mutable_porep()->set_partitions(kPartitions);
  request.mutable_porep()->set_parameter_file(key.string());

  auto first = daemon("first");
  const std::uint64_t id = first->submit(request);
  for (int i = 0; i < 600 && first->await(id, 0ms).partitions_done() == 0; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_GT(first->await(id, 0ms).partitions_done(), 0u);
  // Admission held: the next claimed batch waits in the engine, its leases held.
  first->pause();
  auto leases_of_first = [&] {
    pqxx::connection c(url_);
    pqxx::work w(c);
    return w.exec("SELECT count(*) FROM zkpipe_partitions WHERE owner = 'first' AND state = 1")[0][0].as<int>();
  };
  for (int i = 0; i < 500 && leases_of_first() == 0; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_GT(leases_of_first(), 0);
  EXPECT_GE(first->drain(0s), 1u);
  EXPECT_EQ(leases_of_first(), 0) << "the drained daemon still holds leases";
  const v1::GetStatusResponse status = first->status();
  ASSERT_TRUE(status.has_cluster());
  EXPECT_EQ(status.cluster().daemon(), "first");
  EXPECT_EQ(status.cluster().leased_partitions(), 0u);
  EXPECT_GT(status.cluster().queued_partitions(), 0u);
  const std::string metrics = first->metrics();
  EXPECT_NE(metrics.find("zkpipe_cluster_partitions{state=\"leased\"} 0"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("zkpipe_cluster_daemon_leases{daemon=\"first\"} 0"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("zkpipe_jobs_submitted_total 1"), std::string::npos) << metrics;
  first.reset();

  // Another daemon, asked about the same job, finishes it.
  auto second = daemon("second");
  v1::AwaitProofResponse r;
  for (int i = 0; i < 60; ++i) {
    r = second->await(id, 1s);
    if (r.state() == v1::JOB_STATE_DONE || r.state() == v1::JOB_STATE_FAILED) break;
  }
  ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  ASSERT_EQ(r.proof().size(), kPartitions * 192u);
  const auto proofs =
      groth16::decode_proofs(std::span(reinterpret_cast<const std::uint8_t*>(r.proof().data()), r.proof().size()));
  const groth16::PreparedVerifyingKey pvk(groth16::load_parameter_file(key).vk);
  const porep_like::PorepLikeCircuit circuit(porep_like::find_preset("tiny"), 3, kPartitions);
  for (std::size_t p = 0; p < proofs.size(); ++p) {
    EXPECT_TRUE(groth16::verify(pvk, proofs[p], circuit.public_inputs(p)));
  }
  {
    pqxx::connection c(url_);
    pqxx::work w(c);
    EXPECT_GT(w.exec("SELECT count(*) FROM zkpipe_partitions WHERE proved_by = 'first'")[0][0].as<int>(), 0);
    EXPECT_GT(w.exec("SELECT count(*) FROM zkpipe_partitions WHERE proved_by = 'second'")[0][0].as<int>(), 0);
  }
  // A circom job through the queue: proof.json and public.json as snarkjs writes them.
  const fs::path fixtures = fs::path(ZKPIPE_SOURCE_DIR) / "tests/fixtures/chain-2e10";
  fs::copy_file(fixtures / "circuit_final.zkey", dir / "circuit_final.zkey");
  fs::copy_file(fixtures / "witness.wtns", dir / "witness.wtns");
  v1::SubmitProofRequest circom;
  circom.mutable_circom()->set_zkey((dir / "circuit_final.zkey").string());
  circom.mutable_circom()->set_witness((dir / "witness.wtns").string());
  const std::uint64_t circom_id = second->submit(circom);
  for (int i = 0; i < 60; ++i) {
    r = second->await(circom_id, 1s);
    if (r.state() == v1::JOB_STATE_DONE || r.state() == v1::JOB_STATE_FAILED) break;
  }
  ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  const groth16::VerifyingKey vk = formats::verifying_key_from_json(
      io::read_bounded_file(fixtures / "verification_key.json", formats::kMaxVerifyingKeyJsonBytes, "vk"), "vk");
  EXPECT_TRUE(groth16::verify(groth16::PreparedVerifyingKey(vk), formats::proof_from_json(r.proof_json(), "proof"),
                              formats::public_from_json(r.public_json(), "public")));
  second.reset();
  fs::remove_all(dir);
}

// A Filecoin job's C1 output and sector.json are stored with the job, and the daemon
// that claims it reads them back: the job gets as far as its key (one without
// queries here, whose load fails naming it), never refused for its documents.
TEST_F(ClusterQueueTest, AFilecoinJobCarriesItsDocumentsThroughTheQueue) {
  namespace fs = std::filesystem;
  std::string pattern = (fs::temp_directory_path() / "zkpipe-cluster-XXXXXX").string();
  const fs::path dir = fs::canonical(::mkdtemp(pattern.data()));
  const fs::path params = dir / "no-queries.params";
  testing::write_params_without_queries(params, testing::k2KiBIcPoints);
  auto s = cpu_daemon(dir, "filecoin");

  const std::uint64_t id = s->submit(testing::filecoin_request(testing::sealed_2kib(), params));
  const v1::AwaitProofResponse r = await_end(*s, id, 60);
  ASSERT_EQ(r.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(r.error().find("c1_json"), std::string::npos) << r.error();
  EXPECT_NE(r.error().find(params.string()), std::string::npos) << r.error();
  EXPECT_EQ(r.partitions(), 1u);
  {
    pqxx::connection conn(url_);
    pqxx::work w(conn);
    const auto stored = w.exec_params("SELECT length(request) FROM zkpipe_jobs WHERE id = $1",
                                      static_cast<std::int64_t>(id))[0][0]
                            .as<std::size_t>();
    EXPECT_GT(stored, testing::sealed_2kib().c1_json.size());
  }
  s.reset();
  fs::remove_all(dir);
}

TEST_F(ClusterQueueTest, AWindowPostIsProvedThroughTheQueue) {
  expect_post_proved_through_queue(testing::window_2kib(), testing::window_partition);
}

// Every Filecoin kind goes through the queue: Winning PoSt too.
TEST_F(ClusterQueueTest, AWinningPostIsProvedThroughTheQueue) {
  expect_post_proved_through_queue(testing::winning_2kib(), testing::winning_partition);
}

// A SnapDeals update through the queue: its vanilla partition proofs stored with the
// job, proved and assembled by the daemon, the proof verifying. Its key is set up here
// (a 1.7 M-constraint circuit: `zkpipe setup --circuit filecoin-snapdeals --sector-size
// 2KiB` takes 19 s on two cores).
TEST_F(ClusterQueueTest, ASnapDealsUpdateIsProvedThroughTheQueue) {
  const io::testing::TempDir dir;
  const std::filesystem::path key = std::filesystem::canonical(dir.path()) / "snap-2k.zkp";
  testing::write_update_key_2kib(key, 9);
  const testing::UpdateInput input = testing::update_2kib(31, key);
  v1::SubmitProofRequest request;
  *request.mutable_filecoin_update() = input.job;
  expect_proved_through_queue(request, key, input.circuit, 240);
}

}  // namespace
}  // namespace zkpipe::service
