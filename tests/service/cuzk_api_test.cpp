// cuzk.v1.ProvingEngine driven by a client generated from proto/cuzk/v1/proving.proto
// (the cuzk API's wire form), over the daemon's listener: the PoRep C2 envelope curio
// sends becomes a Filecoin job (its .params here without queries, so the job is
// accepted and fails when its key loads, naming the file: the whole path but the
// proof, which tests/cli/filecoin.sh covers with a real key), the refusals name the
// field, and Cancel, Status, Metrics, PreloadSRS and EvictSRS answer as documented.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "cuzk/v1/proving.grpc.pb.h"
#include "groth16/cpu_prover.hpp"
#include "service/api/cuzk_request.hpp"
#include "service/api/grpc_server.hpp"
#include "service/errors.hpp"
#include "service/proving_service.hpp"
#include "service/queue/local/job_store.hpp"
#include "filecoin_job_util.hpp"
#include "io/temp_dir.hpp"
#include "job_calls.hpp"

namespace zkpipe::service {
namespace {

namespace fs = std::filesystem;
using io::testing::TempDir;
using testing::mentions;
using namespace std::chrono_literals;
using cuzk::v1::AwaitProofResponse;

constexpr std::uint64_t kMiner = 1000;
constexpr std::uint64_t kSector = 42;

std::string base64(const std::string& bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int k = 3; k >= 0; --k) out += kAlphabet[(v >> (6 * k)) & 63];
  }
  if (i + 1 == bytes.size()) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == bytes.size()) {
    const unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
    out += {kAlphabet[v >> 18], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], '='};
  }
  return out;
}

// The sector the envelope carries: sealed by miner kMiner as sector kSector.
const testing::FilecoinDocuments& miners_sector() {
  static const testing::FilecoinDocuments documents = testing::seal_2kib(77, api::prover_id_of_miner(kMiner), kSector);
  return documents;
}

std::string envelope(const std::string& c1_json, std::uint64_t sector_size = 2048) {
  return R"({"SectorNum":)" + std::to_string(kSector) + R"(,"Phase1Out":")" + base64(c1_json) +
         R"(","SectorSize":)" + std::to_string(sector_size) + "}";
}

TEST(CuzkRequest, ProverIdIsTheMinersIdAddressPayload) {
  const filecoin::api::ProverId a = api::prover_id_of_miner(1000);
  EXPECT_EQ(a[0], 0xe8);
  EXPECT_EQ(a[1], 0x07);
  EXPECT_EQ(a[2], 0x00);
  const filecoin::api::ProverId b = api::prover_id_of_miner(128);
  EXPECT_EQ(b[0], 0x80);
  EXPECT_EQ(b[1], 0x01);
  EXPECT_EQ(api::prover_id_of_miner(5)[0], 5);
  const filecoin::api::ProverId max = api::prover_id_of_miner(~std::uint64_t{0});
  for (int i = 0; i < 9; ++i) EXPECT_EQ(max[i], 0xff) << i;
  EXPECT_EQ(max[9], 0x01);
  EXPECT_EQ(max[10], 0x00);
}

TEST(CuzkRequest, PrioritiesFollowCuzksDefaultsByKind) {
  EXPECT_EQ(api::zkpipe_priority(cuzk::v1::PRIORITY_UNSPECIFIED, cuzk::v1::WINNING_POST), v1::PRIORITY_CRITICAL);
  EXPECT_EQ(api::zkpipe_priority(cuzk::v1::PRIORITY_UNSPECIFIED, cuzk::v1::WINDOW_POST_PARTITION), v1::PRIORITY_HIGH);
  EXPECT_EQ(api::zkpipe_priority(cuzk::v1::PRIORITY_UNSPECIFIED, cuzk::v1::POREP_SEAL_COMMIT), v1::PRIORITY_NORMAL);
  EXPECT_EQ(api::zkpipe_priority(cuzk::v1::CRITICAL, cuzk::v1::POREP_SEAL_COMMIT), v1::PRIORITY_CRITICAL);
  EXPECT_EQ(api::zkpipe_priority(cuzk::v1::LOW, cuzk::v1::WINNING_POST), v1::PRIORITY_LOW);
  EXPECT_EQ(api::zkpipe_priority(static_cast<cuzk::v1::Priority>(9), cuzk::v1::POREP_SEAL_COMMIT), v1::PRIORITY_NORMAL);
}

TEST(CuzkRequest, CircuitIdsNameTheSealProofs) {
  EXPECT_EQ(api::cuzk_porep_circuit_id(filecoin::core::seal_proof("StackedDrg32GiBV1_1")), "porep-32g");
  EXPECT_EQ(api::cuzk_porep_circuit_id(filecoin::core::seal_proof("StackedDrg64GiBV1_1")), "porep-64g");
  EXPECT_EQ(api::cuzk_porep_circuit_id(filecoin::core::seal_proof("StackedDrg2KiBV1_1")), "porep-2k");
  EXPECT_EQ(api::cuzk_porep_seal_proof("porep-32g").name, "StackedDrg32GiBV1_1");
  EXPECT_EQ(api::cuzk_porep_seal_proof("porep-8m").name, "StackedDrg8MiBV1_1");
  EXPECT_THROW(api::cuzk_porep_seal_proof("wpost-32g"), ServiceError);
}

TEST(CuzkRequest, AnswersMapOntoCuzksStatuses) {
  v1::AwaitProofResponse done;
  done.set_state(v1::JOB_STATE_DONE);
  done.set_proof(std::string(192, 'p'));
  done.mutable_timings()->set_queue_wait(0.25);
  done.mutable_timings()->set_synthesis(1.5);
  done.mutable_timings()->set_device(2);
  done.mutable_timings()->set_finalize(0.5);
  done.mutable_timings()->set_total(4.25);
  const AwaitProofResponse a = api::cuzk_response(done, "r1");
  EXPECT_EQ(a.job_id(), "r1");
  EXPECT_EQ(a.status(), AwaitProofResponse::COMPLETED);
  EXPECT_EQ(a.proof().size(), 192u);
  EXPECT_EQ(a.queue_wait_ms(), 250u);
  EXPECT_EQ(a.synthesis_ms(), 1500u);
  EXPECT_EQ(a.gpu_compute_ms(), 2500u);
  EXPECT_EQ(a.total_ms(), 4250u);
  v1::AwaitProofResponse failed;
  failed.set_state(v1::JOB_STATE_FAILED);
  failed.set_error("it broke");
  EXPECT_EQ(api::cuzk_response(failed, "r").status(), AwaitProofResponse::FAILED);
  EXPECT_EQ(api::cuzk_response(failed, "r").error_message(), "it broke");
  failed.set_state(v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(api::cuzk_response(failed, "r").status(), AwaitProofResponse::CANCELLED);
  failed.set_state(v1::JOB_STATE_RUNNING);
  EXPECT_EQ(api::cuzk_response(failed, "r").status(), AwaitProofResponse::TIMEOUT);
}

class CuzkApi : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.path() / "params");
    root_ = fs::canonical(dir_.path() / "params");
    params_ = root_ / "no-queries.params";
    testing::write_params_without_queries(params_, testing::k2KiBIcPoints);
    config_.data_dir = dir_.path() / "data";
    fs::create_directories(config_.data_dir);
    config_.parameter_roots = {root_};
    config_.synthesis_workers = 1;
    config_.listen = "127.0.0.1:0";
    config_.max_request_bytes = 8 << 20;
    config_.cuzk_params = {{"porep-2k", params_}, {"porep-32g", root_ / "absent.params"}};
    start();
  }

  // The daemon on config_ (again after a stop: the same data dir and journal).
  void start() {
    BackendSetup backend;
    backend.backends = {std::make_shared<groth16::CpuProver>()};
    service_ = std::make_unique<ProvingService>(config_, std::move(backend));
    server_ = std::make_unique<api::GrpcServer>(*service_, config_, "sesame");
    stub_ = cuzk::v1::ProvingEngine::NewStub(grpc::CreateChannel(
        "127.0.0.1:" + std::to_string(server_->port()), grpc::InsecureChannelCredentials()));
  }

  void TearDown() override {
    server_.reset();
    service_.reset();
  }

  static void authorize(grpc::ClientContext& ctx) { ctx.AddMetadata("authorization", "Bearer sesame"); }

  cuzk::v1::SubmitProofRequest porep(const std::string& request_id) const {
    cuzk::v1::SubmitProofRequest r;
    r.set_request_id(request_id);
    r.set_proof_kind(cuzk::v1::POREP_SEAL_COMMIT);
    r.set_sector_size(2048);
    r.set_registered_proof(5);
    r.set_vanilla_proof(envelope(miners_sector().c1_json));
    r.set_sector_number(kSector);
    r.set_miner_id(kMiner);
    return r;
  }

  grpc::Status submit(const cuzk::v1::SubmitProofRequest& r, cuzk::v1::SubmitProofResponse& out) {
    grpc::ClientContext ctx;
    authorize(ctx);
    return stub_->SubmitProof(&ctx, r, &out);
  }

  grpc::Status await(const std::string& job, std::uint64_t timeout_ms, AwaitProofResponse& out) {
    grpc::ClientContext ctx;
    authorize(ctx);
    cuzk::v1::AwaitProofRequest r;
    r.set_job_id(job);
    r.set_timeout_ms(timeout_ms);
    return stub_->AwaitProof(&ctx, r, &out);
  }

  // The zkpipe job the journal holds under a request id now.
  std::uint64_t job_named(const std::string& request_id) const {
    const std::optional<queue::NamedJob> job = service_->named("cuzk:" + request_id);
    EXPECT_TRUE(job.has_value()) << request_id;
    return job ? job->id : 0;
  }

  cuzk::v1::GetStatusResponse status() {
    grpc::ClientContext ctx;
    authorize(ctx);
    cuzk::v1::GetStatusResponse out;
    EXPECT_TRUE(stub_->GetStatus(&ctx, {}, &out).ok());
    return out;
  }

  TempDir dir_;
  fs::path root_;
  fs::path params_;
  config::ServiceConfig config_;
  std::unique_ptr<ProvingService> service_;
  std::unique_ptr<api::GrpcServer> server_;
  std::unique_ptr<cuzk::v1::ProvingEngine::Stub> stub_;
};

TEST_F(CuzkApi, APorepEnvelopeBecomesAFilecoinJobThatRunsAndFailsOnItsQuerylessKey) {
  cuzk::v1::SubmitProofResponse submitted;
  ASSERT_TRUE(submit(porep("sector-42"), submitted).ok());
  EXPECT_EQ(submitted.job_id(), "sector-42");
  AwaitProofResponse answer;
  ASSERT_TRUE(await("sector-42", 0, answer).ok());
  EXPECT_EQ(answer.job_id(), "sector-42");
  EXPECT_EQ(answer.status(), AwaitProofResponse::FAILED);
  EXPECT_TRUE(mentions(answer.error_message(), "no-queries.params")) << answer.error_message();
  EXPECT_TRUE(answer.proof().empty());
  // The same request id again after the failure: Curio's retry, so a new job runs
  // (and fails the same way) under the id; the failed one's record stays under its number.
  const std::uint64_t failed_job = job_named("sector-42");
  cuzk::v1::SubmitProofResponse again;
  ASSERT_TRUE(submit(porep("sector-42"), again).ok());
  EXPECT_EQ(again.job_id(), "sector-42");
  EXPECT_NE(job_named("sector-42"), failed_job);
  ASSERT_TRUE(await("sector-42", 60000, answer).ok());
  EXPECT_EQ(answer.status(), AwaitProofResponse::FAILED);
  EXPECT_EQ(service_->await(failed_job, 0ms).state(), v1::JOB_STATE_FAILED);
  const cuzk::v1::GetStatusResponse s = status();
  EXPECT_EQ(s.total_proofs_failed(), 2u);
  ASSERT_EQ(s.gpus_size(), 1);
  EXPECT_EQ(s.gpus(0).name(), "cpu");
  // Without a request id the daemon names the job.
  ASSERT_TRUE(submit(porep(""), submitted).ok());
  EXPECT_EQ(submitted.job_id().rfind("job-", 0), 0u) << submitted.job_id();
  ASSERT_TRUE(await(submitted.job_id(), 0, answer).ok());
  EXPECT_EQ(answer.status(), AwaitProofResponse::FAILED);
}

// A request id is journaled with its job: after a restart AwaitProof still finds the
// job by it, and a retry of the failed job runs it again, once.
TEST_F(CuzkApi, ARequestIdOutlivesARestart) {
  service_->pause();  // the job is still queued when the daemon stops
  cuzk::v1::SubmitProofResponse submitted;
  ASSERT_TRUE(submit(porep("sector-7"), submitted).ok());
  server_.reset();
  service_.reset();
  start();
  AwaitProofResponse answer;
  const grpc::Status found = await("sector-7", 60000, answer);
  ASSERT_TRUE(found.ok()) << found.error_message();
  EXPECT_EQ(answer.status(), AwaitProofResponse::FAILED);  // its key has no queries
  EXPECT_TRUE(mentions(answer.error_message(), "no-queries.params")) << answer.error_message();
  cuzk::v1::SubmitProofResponse again;
  ASSERT_TRUE(submit(porep("sector-7"), again).ok());
  EXPECT_EQ(again.job_id(), "sector-7");
  ASSERT_TRUE(await("sector-7", 60000, answer).ok());
  EXPECT_EQ(answer.status(), AwaitProofResponse::FAILED);
  // Two jobs in the journal: the retry queued one.
  server_.reset();
  service_.reset();
  const queue::local::JobStore journal(config_.data_dir / "jobs.sqlite");
  EXPECT_TRUE(journal.get(2).has_value());
  EXPECT_FALSE(journal.get(3).has_value());
}

// A finished job purged from the journal (keep_results_seconds): its request id
// names nothing any more (NOT_FOUND, not the purged job), and a retry queues a new job.
TEST_F(CuzkApi, APurgedJobsIdIsRetried) {
  // Results kept for no time: the janitor purges a finished job within seconds.
  server_.reset();
  service_.reset();
  config_.keep_results_seconds = 0;
  start();
  cuzk::v1::SubmitProofResponse out;
  AwaitProofResponse answer;
  ASSERT_TRUE(submit(porep("sector-10"), out).ok());
  ASSERT_TRUE(await("sector-10", 60000, answer).ok());
  EXPECT_EQ(answer.status(), AwaitProofResponse::FAILED);
  grpc::Status gone;
  for (int i = 0; i < 100; ++i) {
    gone = await("sector-10", 0, answer);
    if (!gone.ok()) break;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_EQ(gone.error_code(), grpc::StatusCode::NOT_FOUND) << "the job was never purged";
  ASSERT_TRUE(submit(porep("sector-10"), out).ok());
  ASSERT_TRUE(await("sector-10", 60000, answer).ok());
  EXPECT_EQ(answer.status(), AwaitProofResponse::FAILED) << "the retry ran";
}

// A 32 GiB sector's C1 output is tens of MB: under Curio's defaults (--cuzk) a 50 MB
// request reaches the C1 reader (here refused for what it holds), where the default
// limit refuses it at the transport.
TEST_F(CuzkApi, CuzkDefaultsTakeA50MbRequest) {
  cuzk::v1::SubmitProofRequest large = porep("large");
  large.set_vanilla_proof(std::string(50'000'000, ' ') + "[]");
  for (const bool cuzk : {false, true}) {
    server_.reset();
    service_.reset();
    config_.max_request_bytes = config::ServiceConfig{}.max_request_bytes;
    if (cuzk) {
      config::use_cuzk_defaults(config_);
      config_.listen = "127.0.0.1:0";
    }
    start();
    cuzk::v1::SubmitProofResponse out;
    const grpc::Status status = submit(large, out);
    if (cuzk) {
      EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
      EXPECT_TRUE(mentions(status.error_message(), "vanilla_proof")) << status.error_message();
    } else {
      EXPECT_EQ(status.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << status.error_message();
    }
  }
}

TEST_F(CuzkApi, BadRequestsAreRefusedNamingTheFieldAndNothingIsQueued) {
  cuzk::v1::SubmitProofResponse out;
  auto expect_refused = [&](const cuzk::v1::SubmitProofRequest& r, grpc::StatusCode code, const std::string& what) {
    const grpc::Status s = submit(r, out);
    EXPECT_EQ(s.error_code(), code) << s.error_message();
    EXPECT_TRUE(mentions(s.error_message(), what)) << s.error_message();
  };
  auto r = porep("a");
  r.set_miner_id(kMiner + 1);
  expect_refused(r, grpc::StatusCode::INVALID_ARGUMENT, "miner_id 1001");
  r = porep("a");
  r.set_sector_number(kSector + 1);
  expect_refused(r, grpc::StatusCode::INVALID_ARGUMENT, "sector_number 43");
  r = porep("a");
  r.set_sector_size(34359738368);
  expect_refused(r, grpc::StatusCode::INVALID_ARGUMENT, "sector_size");
  r = porep("a");
  r.set_vanilla_proof(r.vanilla_proof().substr(0, 200));
  expect_refused(r, grpc::StatusCode::INVALID_ARGUMENT, "vanilla_proof");
  r = porep("a");
  r.set_vanilla_proof(envelope(miners_sector().c1_json, 4096));
  expect_refused(r, grpc::StatusCode::INVALID_ARGUMENT, "SectorSize");
  r = porep("a");
  r.clear_vanilla_proof();
  expect_refused(r, grpc::StatusCode::INVALID_ARGUMENT, "vanilla_proof");
  r = porep("a");
  r.set_proof_kind(static_cast<cuzk::v1::ProofKind>(7));
  expect_refused(r, grpc::StatusCode::INVALID_ARGUMENT, "proof_kind");
  r = porep("a");
  r.set_proof_kind(cuzk::v1::WINDOW_POST_PARTITION);
  expect_refused(r, grpc::StatusCode::INVALID_ARGUMENT, "vanilla_proofs: none given");
  r = porep("a");
  r.set_proof_kind(cuzk::v1::SNAP_DEALS_UPDATE);
  expect_refused(r, grpc::StatusCode::INVALID_ARGUMENT, "5 is no RegisteredUpdateProof");
  r.set_registered_proof(0);  // StackedDrg2KiBV1, but no commitments
  expect_refused(r, grpc::StatusCode::INVALID_ARGUMENT, "comm_r_old must be exactly 32 bytes, got 0");
  {
    grpc::ClientContext ctx;  // no token
    EXPECT_EQ(stub_->SubmitProof(&ctx, porep("a"), &out).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  }
  const cuzk::v1::GetStatusResponse s = status();
  EXPECT_EQ(s.queues_size(), 0);
  EXPECT_EQ(s.total_proofs_failed(), 0u);
  AwaitProofResponse answer;
  EXPECT_EQ(await("a", 0, answer).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(await("job-999", 0, answer).error_code(), grpc::StatusCode::NOT_FOUND);
}

// Ids are echoed cut short: a 64 KiB id that names no job is NOT_FOUND, not the
// client's RESOURCE_EXHAUSTED for a status message past its metadata limit (8 KiB).
TEST_F(CuzkApi, ALongUnknownIdIsNotFoundWithAShortMessage) {
  const std::string id(64 << 10, 'x');
  AwaitProofResponse answer;
  const grpc::Status awaited = await(id, 0, answer);
  EXPECT_EQ(awaited.error_code(), grpc::StatusCode::NOT_FOUND) << awaited.error_message().size();
  EXPECT_TRUE(mentions(awaited.error_message(), "job not found: xxxx"));
  EXPECT_LT(awaited.error_message().size(), 300u);
  cuzk::v1::CancelProofRequest cancel;
  cancel.set_job_id(id);
  cuzk::v1::CancelProofResponse cancelled;
  grpc::ClientContext ctx;
  authorize(ctx);
  const grpc::Status cancel_status = stub_->CancelProof(&ctx, cancel, &cancelled);
  EXPECT_EQ(cancel_status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_LT(cancel_status.error_message().size(), 300u);
  for (const bool preload : {true, false}) {
    grpc::ClientContext c;
    authorize(c);
    grpc::Status s;
    if (preload) {
      cuzk::v1::PreloadSrsRequest r;
      r.set_circuit_id(id);
      cuzk::v1::PreloadSrsResponse out;
      s = stub_->PreloadSRS(&c, r, &out);
    } else {
      cuzk::v1::EvictSrsRequest r;
      r.set_circuit_id(id);
      cuzk::v1::EvictSrsResponse out;
      s = stub_->EvictSRS(&c, r, &out);
    }
    EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << (preload ? "PreloadSRS" : "EvictSRS");
    EXPECT_LT(s.error_message().size(), 300u);
  }
}

// A cancel of a job that ended says it was not running; a live job's cancel (and an
// await's TIMEOUT) need a job that takes a while: tests/cli/cuzk_client.py does them
// against a real 2 KiB key.
TEST_F(CuzkApi, CancelOfAnEndedJobAndStatusAndMetrics) {
  cuzk::v1::SubmitProofResponse out;
  ASSERT_TRUE(submit(porep("ended"), out).ok());
  AwaitProofResponse answer;
  ASSERT_TRUE(await("ended", 0, answer).ok());
  ASSERT_EQ(answer.status(), AwaitProofResponse::FAILED);
  cuzk::v1::CancelProofRequest cancel;
  cancel.set_job_id("ended");
  cuzk::v1::CancelProofResponse cancelled;
  {
    grpc::ClientContext ctx;
    authorize(ctx);
    ASSERT_TRUE(stub_->CancelProof(&ctx, cancel, &cancelled).ok());
  }
  EXPECT_FALSE(cancelled.was_running());
  ASSERT_TRUE(await("ended", 0, answer).ok());
  EXPECT_EQ(answer.status(), AwaitProofResponse::FAILED);
  cancel.set_job_id("nobody");
  {
    grpc::ClientContext ctx;
    authorize(ctx);
    EXPECT_EQ(stub_->CancelProof(&ctx, cancel, &cancelled).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  EXPECT_EQ(status().queues_size(), 0);
  grpc::ClientContext ctx;
  authorize(ctx);
  cuzk::v1::GetMetricsResponse metrics;
  ASSERT_TRUE(stub_->GetMetrics(&ctx, {}, &metrics).ok());
  for (const char* line : {"\ncuzk_proofs_completed_total 0\n", "\ncuzk_proofs_failed_total 1\n",
                           "\ncuzk_queue_depth 0\n", "\ncuzk_running_jobs 0\n", "\ncuzk_gpu_workers 1\n",
                           "\ncuzk_proofs_failed{proof_kind=\"porep_c2\"} 1\n",
                           "\ncuzk_proofs_completed{proof_kind=\"porep_c2\"} 0\n",
                           "\ncuzk_proof_duration_seconds_count{proof_kind=\"porep_c2\"} 0\n"}) {
    EXPECT_TRUE(mentions(metrics.prometheus_text(), line)) << line << " in\n" << metrics.prometheus_text();
  }
  EXPECT_TRUE(mentions(metrics.prometheus_text(), "zkpipe_")) << "zkpipe's own metrics follow";
}

TEST_F(CuzkApi, PreloadAndEvictNameTheirCircuit) {
  auto call_preload = [&](const std::string& id, cuzk::v1::PreloadSrsResponse& out) {
    grpc::ClientContext ctx;
    authorize(ctx);
    cuzk::v1::PreloadSrsRequest r;
    r.set_circuit_id(id);
    return stub_->PreloadSRS(&ctx, r, &out);
  };
  auto call_evict = [&](const std::string& id, cuzk::v1::EvictSrsResponse& out) {
    grpc::ClientContext ctx;
    authorize(ctx);
    cuzk::v1::EvictSrsRequest r;
    r.set_circuit_id(id);
    return stub_->EvictSRS(&ctx, r, &out);
  };
  cuzk::v1::PreloadSrsResponse preloaded;
  grpc::Status s = call_preload("snap-32g", preloaded);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(mentions(s.error_message(), "snap-32g"));
  s = call_preload("porep-32g", preloaded);  // listed, but no file there
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << s.error_message();
  EXPECT_TRUE(mentions(s.error_message(), "absent.params")) << s.error_message();
  s = call_preload("porep-2k", preloaded);  // its queries are missing: the load fails naming the file
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(mentions(s.error_message(), "no-queries.params")) << s.error_message();
  cuzk::v1::EvictSrsResponse evicted;
  ASSERT_TRUE(call_evict("porep-2k", evicted).ok());
  EXPECT_FALSE(evicted.was_loaded());
  EXPECT_EQ(evicted.freed_bytes(), 0u);
  EXPECT_EQ(call_evict("winning-32g", evicted).error_code(), grpc::StatusCode::NOT_FOUND);
}

}  // namespace
}  // namespace zkpipe::service
