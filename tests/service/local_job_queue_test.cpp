// The local job queue (the SQLite journal and the in-process queue) on its own,
// behind the JobQueue interface: a job proved to its event and its journal row,
// max_jobs refusing a submit without journaling it, the journal's unreadable and
// thrice-started jobs failed at open and the rest queued again and run, a queued
// job cancelled at once, a drain leaving a job queued in the journal.
#include <gtest/gtest.h>

#include <condition_variable>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>

#include "circuits/porep_like/porep_circuit.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "service/errors.hpp"
#include "service/queue/local/local_job_queue.hpp"

namespace zkpipe::service {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// The awaits' side: what the queue told, kept for the test to wait on.
class RecordedEvents final : public queue::JobEvents {
 public:
  void finished(std::uint64_t job, const v1::AwaitProofResponse& response) override {
    std::lock_guard lock(mutex_);
    ++times_finished_[job];
    finished_[job] = response;
    wake_.notify_all();
  }
  void changed(std::uint64_t) override {}
  void all_changed() override {
    std::lock_guard lock(mutex_);
    ++all_changed_;
  }

  // The response the job finished with; fails the test after 60 s without it.
  v1::AwaitProofResponse wait_finished(std::uint64_t job) {
    std::unique_lock lock(mutex_);
    if (!wake_.wait_for(lock, 60s, [&] { return finished_.contains(job); })) {
      ADD_FAILURE() << "job " << job << " did not finish";
      return {};
    }
    return finished_.at(job);
  }
  int times_finished(std::uint64_t job) const {
    std::lock_guard lock(mutex_);
    const auto it = times_finished_.find(job);
    return it == times_finished_.end() ? 0 : it->second;
  }
  int all_changed_count() const {
    std::lock_guard lock(mutex_);
    return all_changed_;
  }

 private:
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::uint64_t, v1::AwaitProofResponse> finished_;
  std::map<std::uint64_t, int> times_finished_;
  int all_changed_ = 0;
};

class LocalQueue : public ::testing::Test {
 protected:
  // What the queue proves with, built as ProvingService builds it.
  struct Rig {
    explicit Rig(const config::ServiceConfig& config)
        : paths(config.effective_parameter_roots()), progress(std::make_shared<metrics::PartitionProgress>()) {
      engine::EngineConfig ec;
      ec.synthesis_workers = 1;
      engine = std::make_unique<engine::Engine>(ec, std::vector<std::shared_ptr<groth16::ProverBackend>>{backend});
      engine->add_listener(progress);
      residency = std::make_unique<residency::ParameterResidency>(
          *engine, residency::ParameterTiers{}, 0, residency::KeyCacheOptions{config.effective_key_cache_dir()});
      requests = std::make_unique<jobs::JobRequestBuilder>(paths, *residency, *backend);
      queue = std::make_unique<queue::local::LocalJobQueue>(
          queue::JobQueueServices{config, *engine, *requests, *progress, tally, events});
    }
    // The order ProvingService stops in: the engine's last completions go into the queue.
    ~Rig() {
      queue->stop();
      engine->shutdown(engine::ShutdownMode::cancel);
    }

    std::shared_ptr<groth16::ProverBackend> backend = std::make_shared<groth16::CpuProver>();
    config::PathPolicy paths;
    std::shared_ptr<metrics::PartitionProgress> progress;
    std::unique_ptr<engine::Engine> engine;
    std::unique_ptr<residency::ParameterResidency> residency;
    std::unique_ptr<jobs::JobRequestBuilder> requests;
    metrics::JobTally tally;
    RecordedEvents events;
    std::unique_ptr<queue::local::LocalJobQueue> queue;
  };

  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "zkpipe-local-queue-XXXXXX").string();
    dir_ = ::mkdtemp(pattern.data());
    key_ = dir_ / "params" / "tiny.zkp";
    fs::create_directories(key_.parent_path());
    const porep_like::PorepLikeCircuit circuit(porep_like::find_preset("tiny"), 1, 1);
    groth16::write_parameter_file(key_, groth16::setup(groth16::record_matrices(circuit),
                                                       groth16::ToxicWaste::from_seed(5)));
    config_.data_dir = dir_ / "data";
    fs::create_directories(config_.data_dir);
    config_.parameter_roots = {key_.parent_path()};
  }
  void TearDown() override { fs::remove_all(dir_); }

  v1::SubmitProofRequest request(std::uint32_t partitions, std::uint64_t seed,
                                 v1::Priority priority = v1::PRIORITY_NORMAL) const {
    v1::SubmitProofRequest r;
    r.mutable_porep()->set_preset("tiny");
    r.mutable_porep()->set_seed(seed);
    r.mutable_porep()->set_partitions(partitions);
    r.mutable_porep()->set_parameter_file(key_.string());
    r.set_priority(priority);
    return r;
  }
  std::string bytes_of(const v1::SubmitProofRequest& r) const {
    std::string out;
    r.SerializeToString(&out);
    return out;
  }

  // Every partition's proof against the instance's public inputs, with the key's own
  // verifying key: nothing the queue computed is taken on trust.
  bool verifies(const std::string& proof, std::uint64_t seed, std::uint32_t partitions) const {
    const groth16::PreparedVerifyingKey pvk(groth16::load_parameter_file(key_).vk);
    const porep_like::PorepLikeCircuit circuit(porep_like::find_preset("tiny"), seed, partitions);
    const auto proofs =
        groth16::decode_proofs(std::span(reinterpret_cast<const std::uint8_t*>(proof.data()), proof.size()));
    if (proofs.size() != partitions) return false;
    for (std::size_t p = 0; p < proofs.size(); ++p) {
      if (!groth16::verify(pvk, proofs[p], circuit.public_inputs(p))) return false;
    }
    return true;
  }

  static std::optional<ErrorKind> error_of(const std::function<void()>& f) {
    try {
      f();
    } catch (const ServiceError& e) {
      return e.kind();
    }
    return std::nullopt;
  }

  static v1::AwaitProofResponse response(const std::optional<AwaitAnswer>& answer) {
    if (!answer) {
      ADD_FAILURE() << "no answer";
      return {};
    }
    return std::get<v1::AwaitProofResponse>(*answer);
  }

  fs::path dir_;
  fs::path key_;
  config::ServiceConfig config_;
};

TEST_F(LocalQueue, AJobIsProvedToItsEventAndItsJournalRow) {
  std::uint64_t id = 0;
  std::string proof;
  {
    Rig rig(config_);
    rig.queue->start();
    id = rig.queue->submit(request(2, 7), {});
    const v1::AwaitProofResponse done = rig.events.wait_finished(id);
    ASSERT_EQ(done.state(), v1::JOB_STATE_DONE) << done.error();
    EXPECT_EQ(done.job_id(), id);
    EXPECT_EQ(done.partitions(), 2u);
    EXPECT_EQ(done.partitions_done(), 2u);
    EXPECT_TRUE(verifies(done.proof(), 7, 2));
    EXPECT_FALSE(verifies(done.proof(), 8, 2));  // the check can fail
    EXPECT_EQ(rig.events.times_finished(id), 1);
    // No longer held in memory: answered from the journal, the same proof.
    const v1::AwaitProofResponse again = response(rig.queue->answer(id, false));
    EXPECT_EQ(again.state(), v1::JOB_STATE_DONE);
    EXPECT_EQ(again.proof(), done.proof());
    EXPECT_EQ(again.partitions_done(), 2u);
    const metrics::JobCounters counters = rig.tally.counters();
    EXPECT_EQ(counters.submitted, 1u);
    EXPECT_EQ(counters.done, 1u);
    EXPECT_EQ(rig.queue->cancel(id), v1::JOB_STATE_DONE);  // a finished job stays finished
    proof = done.proof();
  }
  queue::local::JobStore store(config_.data_dir / "jobs.sqlite");
  const auto row = store.get(id);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->status, queue::JobStatus::done);
  EXPECT_EQ(row->proof, proof);
  EXPECT_EQ(row->attempts, 1);
}

TEST_F(LocalQueue, ASubmitBeyondMaxJobsIsRefusedAndNotJournaled) {
  config_.max_jobs = 2;
  {
    Rig rig(config_);  // not started: the jobs stay queued
    rig.queue->submit(request(1, 1), {});
    rig.queue->submit(request(1, 2), {});
    EXPECT_EQ(error_of([&] { rig.queue->submit(request(1, 3), {}); }), ErrorKind::resource_exhausted);
    EXPECT_EQ(rig.tally.counters().submitted, 2u);
    v1::GetStatusResponse status;
    rig.queue->report(status);
    ASSERT_EQ(status.queue_size(), 4);
    EXPECT_EQ(status.queue(2).priority(), "normal");
    EXPECT_EQ(status.queue(2).jobs(), 2u);
  }
  queue::local::JobStore store(config_.data_dir / "jobs.sqlite");
  EXPECT_EQ(store.unfinished().size(), 2u);
}

// A client's name for a job: the same request again answers the journaled job and
// queues nothing, also after the queue is opened again; another request under the
// name takes it: a new job, the earlier one (still queued) cancelled, its record kept
// under its id with the reason.
TEST_F(LocalQueue, ANamedJobAnswersItsRetryAndMovesToAnotherRequest) {
  queue::NamedJob first;
  queue::NamedJob other;
  {
    Rig rig(config_);  // not started: the jobs stay queued
    first = rig.queue->submit_named(request(1, 1), {}, {"cuzk:a", "digest-a"});
    EXPECT_FALSE(first.existed);
    EXPECT_FALSE(first.replaced.has_value());
    const queue::NamedJob again = rig.queue->submit_named(request(1, 1), {}, {"cuzk:a", "digest-a"});
    EXPECT_TRUE(again.existed);
    EXPECT_EQ(again.id, first.id);
    EXPECT_EQ(rig.tally.counters().submitted, 1u);
    other = rig.queue->submit_named(request(1, 1), {}, {"cuzk:a", "digest-b"});
    EXPECT_FALSE(other.existed);
    EXPECT_NE(other.id, first.id);
    ASSERT_TRUE(other.replaced.has_value());
    EXPECT_EQ(other.replaced->id, first.id);
    EXPECT_EQ(other.replaced->status, queue::JobStatus::queued);
    EXPECT_EQ(rig.queue->cancel(first.id), v1::JOB_STATE_CANCELLED) << "cancelled when it was replaced";
    EXPECT_NE(rig.queue->submit_named(request(1, 2), {}, {"cuzk:b", "digest-b"}).id, other.id);
  }
  Rig rig(config_);
  const std::optional<queue::NamedJob> found = rig.queue->named("cuzk:a");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->id, other.id);
  EXPECT_EQ(found->digest, "digest-b");
  EXPECT_FALSE(rig.queue->named("cuzk:c").has_value());
  queue::local::JobStore store(config_.data_dir / "jobs.sqlite");
  EXPECT_EQ(store.unfinished().size(), 2u);
  const std::optional<queue::JobRecord> replaced = store.get(first.id);
  ASSERT_TRUE(replaced.has_value());
  EXPECT_EQ(replaced->status, queue::JobStatus::cancelled);
  EXPECT_NE(replaced->error.find("replaced by job " + std::to_string(other.id)), std::string::npos)
      << replaced->error;
}

// The journal's rule for a name already held: its job answers a retry of the same
// request while queued, running or done; a failed or cancelled job, or another
// request, gives the name to a new job (Curio recovers from anything by sending the
// same request again).
TEST(JobName, AnswersARetryOnlyWithALiveOrProvedJobOfTheSameRequest) {
  for (const queue::JobStatus s : {queue::JobStatus::queued, queue::JobStatus::running, queue::JobStatus::done}) {
    EXPECT_TRUE(queue::name_answers_retry(s, "d", "d")) << static_cast<int>(s);
    EXPECT_FALSE(queue::name_answers_retry(s, "d", "e")) << static_cast<int>(s);
  }
  for (const queue::JobStatus s : {queue::JobStatus::failed, queue::JobStatus::cancelled}) {
    EXPECT_FALSE(queue::name_answers_retry(s, "d", "d")) << static_cast<int>(s);
  }
}

TEST_F(LocalQueue, AFailedNamedJobIsRunAgainAndAProvedOneAnswersItsRetry) {
  queue::local::JobStore store(config_.data_dir / "jobs.sqlite");
  const queue::NamedJob first = store.insert_named(1, "request", 1.0, {"cuzk:f", "d"});
  store.finish(first.id, queue::unsuccessful(queue::JobStatus::failed, "it broke"), 2.0);
  const queue::NamedJob retried = store.insert_named(1, "request", 3.0, {"cuzk:f", "d"});
  EXPECT_FALSE(retried.existed);
  EXPECT_NE(retried.id, first.id);
  ASSERT_TRUE(retried.replaced.has_value());
  EXPECT_EQ(retried.replaced->status, queue::JobStatus::failed);
  EXPECT_EQ(store.get(first.id)->error, "it broke") << "the failed job's record is kept";
  queue::JobOutcome proved;
  proved.proof = "proof";
  store.finish(retried.id, proved, 4.0);
  const queue::NamedJob answered = store.insert_named(1, "request", 5.0, {"cuzk:f", "d"});
  EXPECT_TRUE(answered.existed);
  EXPECT_EQ(answered.id, retried.id);
  EXPECT_EQ(store.unfinished().size(), 0u);
  // Purged, the name is free: the next submit queues a new job.
  EXPECT_EQ(store.purge_finished_before(10.0), 2u);
  EXPECT_FALSE(store.find_named("cuzk:f").has_value());
  const queue::NamedJob after_purge = store.insert_named(1, "request", 11.0, {"cuzk:f", "d"});
  EXPECT_FALSE(after_purge.existed);
  EXPECT_FALSE(after_purge.replaced.has_value());
}

TEST_F(LocalQueue, TheJournalsUnreadableAndThriceStartedJobsFailAtOpenTheRestRun) {
  std::uint64_t unreadable = 0, thrice = 0, twice = 0;
  {
    queue::local::JobStore store(config_.data_dir / "jobs.sqlite");
    unreadable = store.insert(v1::PRIORITY_NORMAL, std::string("\xff\xff\xff", 3), 1.0);
    thrice = store.insert(v1::PRIORITY_NORMAL, bytes_of(request(1, 3)), 1.0);
    twice = store.insert(v1::PRIORITY_HIGH, bytes_of(request(1, 4, v1::PRIORITY_HIGH)), 1.0);
    for (int i = 0; i < 3; ++i) store.mark_running(thrice);
    for (int i = 0; i < 2; ++i) store.mark_running(twice);
  }
  Rig rig(config_);
  const v1::AwaitProofResponse bad = response(rig.queue->answer(unreadable, false));
  EXPECT_EQ(bad.state(), v1::JOB_STATE_FAILED);
  EXPECT_NE(bad.error().find("could not be read"), std::string::npos) << bad.error();
  const v1::AwaitProofResponse killer = response(rig.queue->answer(thrice, false));
  EXPECT_EQ(killer.state(), v1::JOB_STATE_FAILED);
  EXPECT_NE(killer.error().find("stopped 3 times"), std::string::npos) << killer.error();
  // Queued again: worth waiting for until it runs.
  EXPECT_FALSE(rig.queue->answer(twice, false).has_value());
  EXPECT_EQ(response(rig.queue->answer(twice, true)).state(), v1::JOB_STATE_QUEUED);
  v1::GetStatusResponse status;
  rig.queue->report(status);
  ASSERT_EQ(status.queue_size(), 4);
  EXPECT_EQ(status.queue(1).priority(), "high");
  EXPECT_EQ(status.queue(1).jobs(), 1u);
  rig.queue->start();
  const v1::AwaitProofResponse done = rig.events.wait_finished(twice);
  ASSERT_EQ(done.state(), v1::JOB_STATE_DONE) << done.error();
  EXPECT_TRUE(verifies(done.proof(), 4, 1));
  EXPECT_EQ(error_of([&] { rig.queue->answer(twice + 1, false); }), ErrorKind::not_found);
}

TEST_F(LocalQueue, AQueuedJobIsCancelledAtOnceAndItsWaitersTold) {
  Rig rig(config_);  // not started: the job is still queued
  const std::uint64_t id = rig.queue->submit(request(1, 5), {});
  EXPECT_EQ(rig.queue->cancel(id), v1::JOB_STATE_CANCELLED);
  const v1::AwaitProofResponse told = rig.events.wait_finished(id);
  EXPECT_EQ(told.state(), v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(told.error(), "cancelled by the client");
  EXPECT_EQ(rig.queue->cancel(id), v1::JOB_STATE_CANCELLED);  // from the journal now
  EXPECT_EQ(rig.events.times_finished(id), 1);
  EXPECT_EQ(rig.tally.counters().cancelled, 1u);
  EXPECT_EQ(error_of([&] { rig.queue->cancel(id + 1); }), ErrorKind::not_found);
}

TEST_F(LocalQueue, ADrainRefusesSubmitsAndLeavesTheJobQueuedInTheJournal) {
  std::uint64_t id = 0;
  {
    Rig rig(config_);
    id = rig.queue->submit(request(1, 6), {});
    EXPECT_FALSE(rig.queue->draining());
    EXPECT_EQ(rig.queue->drain(std::chrono::steady_clock::now()), 0u);  // none was running
    EXPECT_TRUE(rig.queue->draining());
    EXPECT_GE(rig.events.all_changed_count(), 1);
    EXPECT_EQ(error_of([&] { rig.queue->submit(request(1, 7), {}); }), ErrorKind::unavailable);
    EXPECT_EQ(error_of([&] { rig.queue->answer(id, false); }), ErrorKind::unavailable);
    rig.queue->start();  // a draining queue starts nothing
  }
  queue::local::JobStore store(config_.data_dir / "jobs.sqlite");
  const auto row = store.get(id);
  ASSERT_TRUE(row.has_value());
  EXPECT_EQ(row->status, queue::JobStatus::queued);
  EXPECT_EQ(row->attempts, 0);
  EXPECT_EQ(store.unfinished().size(), 1u);
}

}  // namespace
}  // namespace zkpipe::service
