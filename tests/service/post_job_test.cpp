// Filecoin PoSt partitions in the proving service, from the vanilla proofs
// filecoin-proofs writes (synthetic sectors of 2 KiB here): proved and verified,
// refused at submit for what they get wrong (the field named, nothing queued), through
// cuzk's API as Curio sends them, and — PoSt being deadline-bound — a CRITICAL Window
// PoSt started on the device at the next partition boundary while a PoRep-like job
// holds it.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <thread>

#include "circuits/filecoin/api/post_vanilla.hpp"
#include "circuits/filecoin/api/published_parameters.hpp"
#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "circuits/filecoin/synthetic/synthetic_post.hpp"
#include "circuits/porep_like/porep_circuit.hpp"
#include "formats/bellperson_params.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "groth16/parameter_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "proving/bellperson_key.hpp"
#include "service/api/cuzk_request.hpp"
#include "service/api/grpc_server.hpp"
#include "service/errors.hpp"
#include "service/proving_service.hpp"
#include "service/residency/key_cache_budget.hpp"
#include "io/temp_dir.hpp"
#include "job_calls.hpp"
#include "filecoin_job_util.hpp"
#include "recording_backend.hpp"

namespace zkpipe::service {
namespace {

namespace fs = std::filesystem;
using io::testing::TempDir;
using testing::eventually;
using testing::finish;
using testing::mentions;
using testing::refusal;
using testing::window_2kib;
using testing::window_partition;
using testing::PostPartitionInput;
using namespace std::chrono_literals;

class PostService : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    keys_ = std::make_unique<TempDir>();
    const filecoin::post::FallbackPostCircuit shape = filecoin::synthetic::synthetic_post(window_2kib(), 1, 1);
    const groth16::ProvingKey post_key =
        groth16::setup(groth16::record_matrices(shape), groth16::ToxicWaste::from_seed(3));
    groth16::write_parameter_file(keys_->path() / "wpost-2k.zkp", post_key);
    // The same key as Filecoin publishes its parameters.
    formats::write_bellperson_params(keys_->path() / "wpost-2k.params", post_key);
    const porep_like::PorepLikeCircuit tiny(porep_like::find_preset("tiny"), 1, 1);
    const groth16::ProvingKey tiny_key =
        groth16::setup(groth16::record_matrices(tiny), groth16::ToxicWaste::from_seed(5));
    groth16::write_parameter_file(keys_->path() / "tiny.zkp", tiny_key);
    formats::write_bellperson_params(keys_->path() / "tiny.params", tiny_key);
  }
  static void TearDownTestSuite() { keys_.reset(); }

  void SetUp() override {
    root_ = fs::canonical(keys_->path());
    config_.data_dir = dir_.path() / "data";
    fs::create_directories(config_.data_dir);
    config_.parameter_roots = {root_};
    config_.synthesis_workers = 1;
    config_.max_request_bytes = 8 << 20;
  }

  fs::path post_key() const { return root_ / "wpost-2k.zkp"; }

  std::unique_ptr<ProvingService> start(std::shared_ptr<groth16::ProverBackend> device = nullptr) const {
    BackendSetup backend;
    backend.backends = {device ? device : std::make_shared<groth16::CpuProver>()};
    return std::make_unique<ProvingService>(config_, std::move(backend));
  }

  // Curio's Window PoSt request for the partition, under request_id.
  static cuzk::v1::SubmitProofRequest cuzk_window_post(const PostPartitionInput& input, const std::string& request_id) {
    cuzk::v1::SubmitProofRequest r;
    r.set_request_id(request_id);
    r.set_proof_kind(cuzk::v1::WINDOW_POST_PARTITION);
    r.set_registered_proof(10);  // StackedDrgWindow2KiBV1_1 in the Go ABI
    r.set_randomness(input.job.randomness());
    *r.mutable_vanilla_proofs() = input.job.vanilla_proofs();
    r.set_miner_id(1000);
    return r;
  }

  bool verifies(const v1::AwaitProofResponse& r, const filecoin::post::FallbackPostCircuit& circuit) const {
    return testing::proofs_verify(r.proof(), post_key(), circuit);
  }

  static inline std::unique_ptr<TempDir> keys_;
  TempDir dir_;
  fs::path root_;
  config::ServiceConfig config_;
};

TEST_F(PostService, AWindowPostPartitionIsProvedFromItsVanillaProofs) {
  auto s = start();
  const PostPartitionInput input = window_partition(21, post_key());
  v1::SubmitProofRequest r;
  *r.mutable_filecoin_post() = input.job;
  const v1::AwaitProofResponse done = finish(*s, s->submit(r));
  ASSERT_EQ(done.state(), v1::JOB_STATE_DONE) << done.error();
  EXPECT_EQ(done.proof().size(), 192u);
  EXPECT_TRUE(verifies(done, input.circuit));
  EXPECT_EQ(done.partitions(), 1u);
}

// Filecoin's parameter format: converted once into the key cache beside it, the proof
// verifying with the key; another circuit's .params is refused at submit from its
// verifying key's IC count.
TEST_F(PostService, AWindowPostIsProvedWithBellpersonParams) {
  auto s = start();
  PostPartitionInput input = window_partition(25, root_ / "wpost-2k.params");
  v1::SubmitProofRequest r;
  *r.mutable_filecoin_post() = input.job;
  const v1::AwaitProofResponse done = finish(*s, s->submit(r));
  ASSERT_EQ(done.state(), v1::JOB_STATE_DONE) << done.error();
  EXPECT_TRUE(verifies(done, input.circuit));
  EXPECT_TRUE(fs::exists(config_.data_dir / "key-cache" / "wpost-2k.params.zkp")) << "converted into the key cache";
  EXPECT_FALSE(fs::exists(root_ / "wpost-2k.params.zkp")) << "never beside the .params";
  r.mutable_filecoin_post()->set_parameter_file((root_ / "tiny.params").string());
  const ServiceError e = refusal(*s, r);
  EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  EXPECT_TRUE(mentions(e.what(), "filecoin_post.parameter_file")) << e.what();
  EXPECT_TRUE(mentions(e.what(), "tiny.params")) << e.what();
}

TEST_F(PostService, BadVanillaProofsAreRefusedNamingTheFieldAndNothingIsQueued) {
  auto s = start();
  const v1::FilecoinPostJob good = window_partition(22, post_key()).job;
  auto expect_refused = [&](const v1::FilecoinPostJob& job, const std::string& what) {
    v1::SubmitProofRequest r;
    *r.mutable_filecoin_post() = job;
    testing::expect_invalid(*s, r, what);
  };
  v1::FilecoinPostJob job = good;
  job.set_randomness(good.randomness().substr(0, 31));
  expect_refused(job, "filecoin_post.randomness: 31 bytes");
  // Another randomness draws other leaves: the proofs are for other challenges.
  job = good;
  std::string other = good.randomness();
  other[0] = static_cast<char>(other[0] ^ 1);
  job.set_randomness(other);
  expect_refused(job, "filecoin_post.vanilla_proofs");
  job = good;
  job.set_vanilla_proofs(1, good.vanilla_proofs(1).substr(0, 100));
  expect_refused(job, "filecoin_post.vanilla_proofs[1]");
  job = good;
  job.set_registered_proof("StackedDrgWindow3KiBV1_2");
  expect_refused(job, "filecoin_post.registered_proof");
  job = good;
  job.set_registered_proof("StackedDrgWindow8MiBV1_2");  // the proofs' trees are 2 KiB ones
  expect_refused(job, "filecoin_post.vanilla_proofs");
  job = good;
  job.add_vanilla_proofs(good.vanilla_proofs(0));  // three sectors; a 2 KiB partition holds two
  expect_refused(job, "at most 2");
  job = good;
  job.clear_vanilla_proofs();
  expect_refused(job, "filecoin_post.vanilla_proofs: none given");
  std::uint32_t queued = 0;
  const v1::GetStatusResponse status = s->status();
  for (const auto& depth : status.queue()) queued += depth.jobs();
  EXPECT_EQ(queued, 0u);
}

// The PoRep-like job holds the device when the PoSt arrives; the PoSt's partition
// starts after at most the partitions already past admission: the one on the device,
// the one in the channel to it and the one in synthesis (one synthesis worker) — not
// after the normal job's remaining ones. Checked by the device's order of starts.
// Admission is paused while the PoSt is prepared (its key loaded, its proofs checked):
// on a loaded machine that takes long enough for any number of tiny partitions to pass,
// which is the engine working, not the priority failing.
TEST_F(PostService, ACriticalWindowPostStartsAtTheNextPartitionBoundary) {
  auto device = std::make_shared<testing::RecordsStarts>();
  auto s = start(device);
  v1::SubmitProofRequest normal;
  normal.mutable_porep()->set_preset("tiny");
  normal.mutable_porep()->set_seed(7);
  normal.mutable_porep()->set_partitions(24);
  normal.mutable_porep()->set_parameter_file((root_ / "tiny.zkp").string());
  normal.set_priority(v1::PRIORITY_NORMAL);
  const std::uint64_t porep = s->submit(normal);
  for (int i = 0; i < 600 && s->await(porep, 0ms).partitions_done() < 1; ++i) std::this_thread::sleep_for(10ms);
  ASSERT_GE(s->await(porep, 0ms).partitions_done(), 1u);

  const PostPartitionInput input = window_partition(23, post_key());
  v1::SubmitProofRequest post;
  *post.mutable_filecoin_post() = input.job;
  post.set_priority(v1::PRIORITY_CRITICAL);
  s->pause();
  const std::uint64_t critical = s->submit(post);
  ASSERT_TRUE(eventually([&] { return s->await(critical, 0ms).state() == v1::JOB_STATE_RUNNING; }));
  const std::size_t started_before = device->started().size();
  s->resume();
  const v1::AwaitProofResponse p = finish(*s, critical);
  const v1::AwaitProofResponse n = finish(*s, porep);
  ASSERT_EQ(p.state(), v1::JOB_STATE_DONE) << p.error();
  ASSERT_EQ(n.state(), v1::JOB_STATE_DONE) << n.error();
  EXPECT_TRUE(verifies(p, input.circuit));

  const auto started = device->started();
  ASSERT_EQ(started.size(), 25u);
  const std::vector<ff::Fr> post_inputs = input.circuit.public_inputs(0);
  std::size_t at = started.size();
  for (std::size_t i = 0; i < started.size(); ++i) {
    if (started[i] == post_inputs) at = i;
  }
  ASSERT_LT(at, started.size()) << "the PoSt partition was never started";
  ASSERT_GE(at, started_before);
  EXPECT_LE(at - started_before, 3u) << "normal partitions started after the PoSt was queued, ahead of it";
  EXPECT_LT(at, started.size() - 1) << "the PoSt waited for the whole PoRep-like job";
}

// Curio's Window PoSt request through cuzk's API: the randomness, the partition's
// vanilla proofs as its blobs, the registered proof by its Go ABI number (10–14 are
// proved as V1_2, as cuzk does).
// A storage provider's parameter directory, read-only, holding Filecoin's Window PoSt
// .params and .vk under their published names: Curio's request is proved with no
// [cuzk_params] list, the key cache written into the daemon's own directory. A .params
// whose verifying key is not its .vk's is refused, naming both.
TEST_F(PostService, CuzkFindsPublishedParamsInAReadOnlyFilecoinDirectory) {
  const fs::path filecoin = dir_.path() / "filecoin-proof-parameters";
  fs::create_directories(filecoin);
  const std::string name(
      filecoin::api::published_params_name(filecoin::api::ParameterCircuit::kWindowPost, 2048).value());
  fs::copy_file(root_ / "wpost-2k.params", filecoin / name);
  const fs::path vk = fs::path(filecoin / name).replace_extension(".vk");
  const groth16::VerifyingKey post_vk = groth16::load_parameter_file(post_key()).vk;
  formats::write_bellperson_vk(vk, post_vk);
  fs::permissions(filecoin, fs::perms::owner_read | fs::perms::owner_exec, fs::perm_options::replace);
  config_.listen = "127.0.0.1:0";
  config_.filecoin_params = filecoin;
  // A stale cache of 1 MiB in the key cache directory, and a budget that holds the new
  // cache (with its evaluator's share) but not both: the stale one makes room.
  const fs::path stale = config_.data_dir / "key-cache" / "stale.params.zkp";
  fs::create_directories(stale.parent_path());
  std::ofstream(stale, std::ios::binary) << std::string(1 << 20, 's');
  const std::uintmax_t params_bytes = fs::file_size(filecoin / name);
  config_.key_cache_budget_bytes =
      proving::key_cache_bytes_estimate(params_bytes) + params_bytes / 5 + (std::size_t{512} << 10);
  auto s = start();
  api::GrpcServer server(*s, config_, "");
  auto stub = cuzk::v1::ProvingEngine::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(server.port()), grpc::InsecureChannelCredentials()));
  const PostPartitionInput input = window_partition(27, filecoin / name);
  cuzk::v1::ProveRequest prove;
  *prove.mutable_submit() = cuzk_window_post(input, "wpost-published");
  cuzk::v1::ProveResponse proved;
  {
    grpc::ClientContext ctx;
    const grpc::Status status = stub->Prove(&ctx, prove, &proved);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  ASSERT_EQ(proved.result().status(), cuzk::v1::AwaitProofResponse::COMPLETED) << proved.result().error_message();
  v1::AwaitProofResponse as_zkpipe;
  as_zkpipe.set_proof(proved.result().proof());
  EXPECT_TRUE(verifies(as_zkpipe, input.circuit));
  EXPECT_TRUE(fs::exists(config_.data_dir / "key-cache" / (name + ".zkp")));
  EXPECT_FALSE(fs::exists(stale)) << "the oldest cache makes room within key_cache_budget";
  // The directory's size and budget are in the status (and the metrics built from it).
  const v1::GetStatusResponse status = s->status();
  EXPECT_EQ(status.key_cache_dir(), (config_.data_dir / "key-cache").string());
  EXPECT_EQ(status.key_cache_bytes(), residency::key_cache_bytes(config_.data_dir / "key-cache"));
  EXPECT_GE(status.key_cache_bytes(), fs::file_size(config_.data_dir / "key-cache" / (name + ".zkp")));
  EXPECT_EQ(status.key_cache_budget_bytes(), config_.key_cache_budget_bytes);
  fs::permissions(filecoin, fs::perms::owner_all, fs::perm_options::replace);
  EXPECT_EQ(std::distance(fs::directory_iterator(filecoin), fs::directory_iterator{}), 2) << "nothing written there";

  // Another key's verifying key in the .vk: the .params is not Filecoin's under that name.
  formats::write_bellperson_vk(vk, groth16::load_parameter_file(root_ / "tiny.zkp").vk);
  grpc::ClientContext ctx;
  cuzk::v1::SubmitProofResponse out;
  const grpc::Status refused = stub->SubmitProof(&ctx, cuzk_window_post(input, "wpost-mismatch"), &out);
  EXPECT_EQ(refused.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << refused.error_message();
  EXPECT_TRUE(mentions(refused.error_message(), ".vk")) << refused.error_message();
}

// Curio's retries of a deadline's partition while its job waits (the engine paused):
// the same request answers the queued job; another request (another priority) takes
// the id, the queued job cancelled saying why; after a cancel the same request queues
// a new job, which proves once the engine goes on.
TEST_F(PostService, CuzkRetriesReplaceOrRequeueAQueuedWindowPost) {
  config_.listen = "127.0.0.1:0";
  config_.cuzk_params = {{"wpost-2k", post_key()}};
  auto s = start();
  s->pause();
  api::GrpcServer server(*s, config_, "");
  auto stub = cuzk::v1::ProvingEngine::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(server.port()), grpc::InsecureChannelCredentials()));
  const PostPartitionInput input = window_partition(26, post_key());
  const cuzk::v1::SubmitProofRequest r = cuzk_window_post(input, "wpost-deadline-9");
  auto submit = [&](const cuzk::v1::SubmitProofRequest& request) {
    grpc::ClientContext ctx;
    cuzk::v1::SubmitProofResponse out;
    const grpc::Status status = stub->SubmitProof(&ctx, request, &out);
    EXPECT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(out.job_id(), "wpost-deadline-9");
    return s->named("cuzk:wpost-deadline-9").value_or(queue::NamedJob{}).id;
  };
  const std::uint64_t first = submit(r);
  EXPECT_EQ(submit(r), first) << "the same request while its job is queued";
  cuzk::v1::SubmitProofRequest changed = r;
  changed.set_priority(cuzk::v1::HIGH);
  const std::uint64_t second = submit(changed);
  EXPECT_NE(second, first);
  const v1::AwaitProofResponse replaced = s->await(first, 0ms);
  EXPECT_EQ(replaced.state(), v1::JOB_STATE_CANCELLED);
  EXPECT_TRUE(mentions(replaced.error(), "replaced by job " + std::to_string(second))) << replaced.error();
  {
    grpc::ClientContext ctx;
    cuzk::v1::CancelProofRequest cancel;
    cancel.set_job_id("wpost-deadline-9");
    cuzk::v1::CancelProofResponse cancelled;
    ASSERT_TRUE(stub->CancelProof(&ctx, cancel, &cancelled).ok());
    EXPECT_TRUE(cancelled.was_running());
  }
  EXPECT_EQ(s->await(second, 0ms).state(), v1::JOB_STATE_CANCELLED);
  const std::uint64_t third = submit(changed);
  EXPECT_NE(third, second) << "a retry after the cancel queues a new job";
  s->resume();
  grpc::ClientContext ctx;
  cuzk::v1::AwaitProofRequest await;
  await.set_job_id("wpost-deadline-9");
  cuzk::v1::AwaitProofResponse done;
  ASSERT_TRUE(stub->AwaitProof(&ctx, await, &done).ok());
  ASSERT_EQ(done.status(), cuzk::v1::AwaitProofResponse::COMPLETED) << done.error_message();
  v1::AwaitProofResponse as_zkpipe;
  as_zkpipe.set_proof(done.proof());
  EXPECT_TRUE(verifies(as_zkpipe, input.circuit));
}

TEST_F(PostService, CuzkWindowPostRequestsAreProvedAndRefusedLikeTheService) {
  config_.listen = "127.0.0.1:0";
  config_.cuzk_params = {{"wpost-2k", post_key()}};
  auto s = start();
  api::GrpcServer server(*s, config_, "");
  auto stub = cuzk::v1::ProvingEngine::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(server.port()), grpc::InsecureChannelCredentials()));
  const PostPartitionInput input = window_partition(24, post_key());
  cuzk::v1::SubmitProofRequest r = cuzk_window_post(input, "wpost-deadline-7");
  auto prove = [&](const cuzk::v1::SubmitProofRequest& submit) {
    cuzk::v1::ProveRequest request;
    *request.mutable_submit() = submit;
    cuzk::v1::ProveResponse proved;
    grpc::ClientContext ctx;
    const grpc::Status status = stub->Prove(&ctx, request, &proved);
    EXPECT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(proved.result().status(), cuzk::v1::AwaitProofResponse::COMPLETED) << proved.result().error_message();
    return proved.result().proof();
  };
  const std::string proof = prove(r);
  v1::AwaitProofResponse as_zkpipe;
  as_zkpipe.set_proof(proof);
  EXPECT_TRUE(verifies(as_zkpipe, input.circuit));
  const std::optional<queue::NamedJob> proved_job = s->named("cuzk:wpost-deadline-7");
  ASSERT_TRUE(proved_job.has_value());
  // The same request under the id again: the proved job's proof, nothing proved again.
  EXPECT_EQ(prove(r), proof);
  EXPECT_EQ(s->named("cuzk:wpost-deadline-7")->id, proved_job->id);
  // Another request under the id (Curio's retry of the deadline at another priority):
  // a new job, proved anew (another blinding, so another proof that verifies too).
  cuzk::v1::SubmitProofRequest changed = r;
  changed.set_priority(cuzk::v1::HIGH);
  const std::string reproved = prove(changed);
  EXPECT_NE(reproved, proof);
  as_zkpipe.set_proof(reproved);
  EXPECT_TRUE(verifies(as_zkpipe, input.circuit));
  EXPECT_NE(s->named("cuzk:wpost-deadline-7")->id, proved_job->id);
  EXPECT_EQ(s->await(proved_job->id, 0ms).state(), v1::JOB_STATE_DONE) << "the first job's record is kept";
  {
    grpc::ClientContext ctx;
    cuzk::v1::GetMetricsResponse metrics;
    ASSERT_TRUE(stub->GetMetrics(&ctx, {}, &metrics).ok());
    for (const char* line : {"\ncuzk_proofs_completed{proof_kind=\"window_post\"} 2\n",
                             "\ncuzk_proofs_failed{proof_kind=\"window_post\"} 0\n",
                             "\ncuzk_proof_duration_seconds_count{proof_kind=\"window_post\"} 2\n",
                             "\ncuzk_proof_duration_seconds_bucket{proof_kind=\"window_post\",le=\"+Inf\"} 2\n"}) {
      EXPECT_TRUE(mentions(metrics.prometheus_text(), line)) << line << " in\n" << metrics.prometheus_text();
    }
  }

  auto refused = [&](const cuzk::v1::SubmitProofRequest& bad) {
    grpc::ClientContext ctx;
    cuzk::v1::SubmitProofResponse out;
    return stub->SubmitProof(&ctx, bad, &out);
  };
  grpc::Status status;
  r.clear_request_id();
  cuzk::v1::SubmitProofRequest bad = r;
  bad.set_registered_proof(0);  // a Winning PoSt proof
  status = refused(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(status.error_message(), "not a Window PoSt proof")) << status.error_message();
  bad = r;
  bad.set_randomness("short");
  status = refused(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(status.error_message(), "randomness")) << status.error_message();
  bad = r;
  bad.set_registered_proof(13);  // 32 GiB: no parameters listed
  status = refused(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(mentions(status.error_message(), "wpost-32g")) << status.error_message();
  // PreloadSRS / EvictSRS by the PoSt circuit id: the key the proof above used, loaded
  // already; evicted, then loaded again.
  auto preload = [&] {
    grpc::ClientContext ctx;
    cuzk::v1::PreloadSrsRequest request;
    request.set_circuit_id("wpost-2k");
    cuzk::v1::PreloadSrsResponse out;
    EXPECT_TRUE(stub->PreloadSRS(&ctx, request, &out).ok());
    return out;
  };
  EXPECT_TRUE(preload().already_loaded());
  {
    grpc::ClientContext ctx;
    cuzk::v1::EvictSrsRequest request;
    request.set_circuit_id("wpost-2k");
    cuzk::v1::EvictSrsResponse out;
    ASSERT_TRUE(stub->EvictSRS(&ctx, request, &out).ok());
    EXPECT_TRUE(out.was_loaded());
    EXPECT_GT(out.freed_bytes(), 0u);
  }
  EXPECT_FALSE(preload().already_loaded());
  bad = r;
  bad.set_proof_kind(cuzk::v1::SNAP_DEALS_UPDATE);  // 10 is no RegisteredUpdateProof
  status = refused(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(status.error_message(), "RegisteredUpdateProof")) << status.error_message();
}

}  // namespace
}  // namespace zkpipe::service
