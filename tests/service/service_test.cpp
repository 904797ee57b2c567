// The proving service in process: jobs through the engine on the CPU backend with
// the tiny preset's key, the journal across restarts, cancellation freeing the
// ledger, priorities, residency (reference counts, LRU under the budget, idle
// eviction, preload / evict), path confinement and bad requests, and the gRPC front
// (bearer token, request size limit, WatchBuffers and its bounds, HTTP /metrics,
// bad bytes refused after the token, 600 parked waits starving no call, the
// per-client limit, health and reflection, one server per socket); circom/snarkjs
// jobs (a .zkey and a .wtns from tests/fixtures/chain-2e10); keys of another preset
// refused; a parameter load in progress holds up no job whose parameters are resident;
// files changed under the daemon (a key truncated or replaced while resident or while
// a job reads it, paths swapped to point outside the root after submit).
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <future>
#include <mutex>
#include <optional>
#include <filesystem>
#include <fstream>
#include <grpcpp/generic/generic_stub.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/unknown_field_set.h>
#include <grpcpp/grpcpp.h>
#include <httplib.h>
#include <thread>

#include "formats/snarkjs_json.hpp"
#include "io/bounded_read.hpp"
#include "memory/buffer_ledger.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "io/mapping_faults.hpp"
#include "io/temp_dir.hpp"
#include "circuits/porep_like/porep_circuit.hpp"
#include "grpc/reflection/v1/reflection.grpc.pb.h"
#include "service/api/cuzk_server.hpp"
#include "service/api/grpc_server.hpp"
#include "service/errors.hpp"
#include "service/metrics/http_metrics.hpp"
#include "service/proving_service.hpp"
#include "service/queue/local/job_store.hpp"
#include "job_calls.hpp"
#include "recording_backend.hpp"
#include "zkpipe/v1/zkpipe.grpc.pb.h"

namespace zkpipe::service {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using testing::eventually;

using io::testing::TempDir;

void write_key(const fs::path& path, std::uint64_t setup_seed) {
  const porep_like::PorepLikeCircuit circuit(porep_like::find_preset("tiny"), 1, 1);
  const r1cs::R1csMatrices m = groth16::record_matrices(circuit);
  groth16::write_parameter_file(path, groth16::setup(m, groth16::ToxicWaste::from_seed(setup_seed)));
}

class Service : public ::testing::Test {
 protected:
  void SetUp() override {
    key_ = dir_.path() / "params" / "tiny.zkp";
    fs::create_directories(key_.parent_path());
    write_key(key_, 5);
    config_.data_dir = dir_.path() / "data";
    fs::create_directories(config_.data_dir);
    config_.parameter_roots = {key_.parent_path()};
    config_.synthesis_workers = 1;
  }

  std::unique_ptr<ProvingService> start(const config::ServiceConfig& config) {
    BackendSetup backend;
    backend.backends = {std::make_shared<groth16::CpuProver>()};
    return std::make_unique<ProvingService>(config, std::move(backend));
  }
  std::unique_ptr<ProvingService> start() { return start(config_); }

  v1::SubmitProofRequest request(std::uint32_t partitions, std::uint64_t seed = 7,
                                 v1::Priority priority = v1::PRIORITY_NORMAL) const {
    v1::SubmitProofRequest r;
    r.mutable_porep()->set_preset("tiny");
    r.mutable_porep()->set_seed(seed);
    r.mutable_porep()->set_partitions(partitions);
    r.mutable_porep()->set_parameter_file(key_.string());
    r.set_priority(priority);
    return r;
  }

  v1::AwaitProofResponse finish(ProvingService& s, std::uint64_t id) {
    v1::AwaitProofResponse r;
    for (int i = 0; i < 120; ++i) {
      r = s.await(id, 1s);
      if (r.state() != v1::JOB_STATE_QUEUED && r.state() != v1::JOB_STATE_RUNNING) return r;
    }
    ADD_FAILURE() << "job " << id << " did not finish";
    return r;
  }

  // Every partition's proof against the instance's public inputs.
  bool verifies(const v1::AwaitProofResponse& r, std::uint64_t seed) const {
    const groth16::ProvingKey key = groth16::load_parameter_file(key_);
    const groth16::PreparedVerifyingKey pvk(key.vk);
    const porep_like::PorepLikeCircuit circuit(porep_like::find_preset("tiny"), seed, r.partitions());
    const auto proofs = groth16::decode_proofs(
        std::span(reinterpret_cast<const std::uint8_t*>(r.proof().data()), r.proof().size()));
    if (proofs.size() != r.partitions()) return false;
    for (std::size_t p = 0; p < proofs.size(); ++p) {
      if (!groth16::verify(pvk, proofs[p], circuit.public_inputs(p))) return false;
    }
    return true;
  }

  static ErrorKind error_of(const std::function<void()>& f) {
    try {
      f();
    } catch (const ServiceError& e) {
      return e.kind();
    }
    ADD_FAILURE() << "no ServiceError";
    return ErrorKind::unavailable;
  }

  TempDir dir_;
  fs::path key_;
  config::ServiceConfig config_;
};

// A unary call by its method path with raw bytes: for bytes no stub would send, and
// for the standard services (health) without their .proto.
std::pair<grpc::Status, std::string> raw_unary(const std::shared_ptr<grpc::Channel>& channel, const std::string& method,
                                               const std::string& request, const std::string& token = "") {
  grpc::GenericStub generic(channel);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 30s);
  if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
  grpc::Slice slice(request);
  grpc::ByteBuffer sent(&slice, 1);
  grpc::ByteBuffer received;
  std::promise<grpc::Status> status;
  generic.UnaryCall(&ctx, method, grpc::StubOptions(), &sent, &received,
                    [&](grpc::Status s) { status.set_value(std::move(s)); });
  const grpc::Status s = status.get_future().get();
  std::vector<grpc::Slice> slices;
  std::string bytes;
  if (s.ok() && received.Dump(&slices).ok()) {
    for (const auto& piece : slices) bytes.append(reinterpret_cast<const char*>(piece.begin()), piece.size());
  }
  return {s, bytes};
}

// grpc.health.v1.Health/Check for `service` (HealthCheckRequest's field 1); the
// answer's status (HealthCheckResponse's field 1: 1 SERVING, 2 NOT_SERVING), or -1
// when the call fails.
int health_of(const std::shared_ptr<grpc::Channel>& channel, const std::string& service) {
  google::protobuf::UnknownFieldSet request;
  if (!service.empty()) request.AddLengthDelimited(1, service);
  std::string bytes;
  request.SerializeToString(&bytes);
  const auto [status, answer] = raw_unary(channel, "/grpc.health.v1.Health/Check", bytes);
  google::protobuf::UnknownFieldSet response;
  if (!status.ok() || !response.ParseFromString(answer)) return -1;
  for (int i = 0; i < response.field_count(); ++i) {
    if (response.field(i).number() == 1) return static_cast<int>(response.field(i).varint());
  }
  return 0;  // UNKNOWN is encoded as no field
}

// The services server reflection (grpc.reflection.`version`: v1alpha or v1, the same
// messages) lists, over its stream: ServerReflectionRequest{list_services (7): ""};
// the response's list_services_response (6) repeats service (1), each with its name (1).
std::vector<std::string> reflected_services(const std::shared_ptr<grpc::Channel>& channel,
                                            const std::string& version) {
  grpc::GenericStub generic(channel);
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + 30s);
  grpc::CompletionQueue cq;
  auto call =
      generic.PrepareCall(&ctx, "/grpc.reflection." + version + ".ServerReflection/ServerReflectionInfo", &cq);
  auto completed = [&] {
    void* tag = nullptr;
    bool ok = false;
    return cq.Next(&tag, &ok) && ok;
  };
  google::protobuf::UnknownFieldSet list;
  list.AddLengthDelimited(7, "");
  std::string bytes;
  list.SerializeToString(&bytes);
  grpc::Slice slice(bytes);
  grpc::ByteBuffer request(&slice, 1);
  grpc::ByteBuffer response;
  call->StartCall(nullptr);
  EXPECT_TRUE(completed());
  call->Write(request, nullptr);
  EXPECT_TRUE(completed());
  call->WritesDone(nullptr);
  EXPECT_TRUE(completed());
  call->Read(&response, nullptr);
  const bool read = completed();
  grpc::Status status;
  call->Finish(&status, nullptr);
  completed();
  std::vector<std::string> names;
  std::vector<grpc::Slice> slices;
  if (!read || !response.Dump(&slices).ok()) return names;
  std::string answer;
  for (const auto& piece : slices) answer.append(reinterpret_cast<const char*>(piece.begin()), piece.size());
  google::protobuf::UnknownFieldSet fields;
  fields.ParseFromString(answer);
  for (int i = 0; i < fields.field_count(); ++i) {
    if (fields.field(i).number() != 6) continue;
    google::protobuf::UnknownFieldSet services;
    services.ParseFromString(fields.field(i).length_delimited());
    for (int j = 0; j < services.field_count(); ++j) {
      google::protobuf::UnknownFieldSet service;
      service.ParseFromString(services.field(j).length_delimited());
      if (service.field_count() > 0) names.push_back(service.field(0).length_delimited());
    }
  }
  return names;
}

TEST_F(Service, ProvesVerifiableProofsAndAWarmProveSkipsLoading) {
  auto s = start();
  const auto first = finish(*s, s->submit(request(2, 7)));
  ASSERT_EQ(first.state(), v1::JOB_STATE_DONE) << first.error();
  EXPECT_EQ(first.proof().size(), 2u * 192);
  EXPECT_TRUE(verifies(first, 7));
  EXPECT_GT(first.timings().parameter_load(), 0.0);
  EXPECT_GT(first.timings().device(), 0.0);
  EXPECT_GE(first.timings().total(), first.timings().synthesis());

  const auto warm = finish(*s, s->submit(request(1, 9)));
  ASSERT_EQ(warm.state(), v1::JOB_STATE_DONE) << warm.error();
  EXPECT_EQ(warm.timings().parameter_load(), 0.0);
  EXPECT_TRUE(verifies(warm, 9));
  EXPECT_FALSE(verifies(warm, 10));
  EXPECT_EQ(s->status().jobs_done(), 2u);
}

TEST_F(Service, CancelFreesEverythingTheJobHeld) {
  auto s = start();
  s->preload([&] {
    v1::PreloadParamsRequest r;
    r.set_parameter_file(key_.string());
    r.set_preset("tiny");
    return r;
  }());
  const memory::LedgerSnapshot before = s->ledger().snapshot();
  const std::uint64_t id = s->submit(request(64));
  // Cancelled mid-flight: some partitions proved, others in the pipeline or queued.
  ASSERT_TRUE(eventually([&] { return s->await(id, 0ms).partitions_done() >= 1; }));
  EXPECT_EQ(s->cancel(id), v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(s->await(id, 0ms).state(), v1::JOB_STATE_CANCELLED);
  EXPECT_TRUE(eventually([&] {
    const auto now = s->ledger().snapshot();
    return now.tracked == before.tracked && now.count == before.count;
  })) << "tracked " << s->ledger().snapshot().tracked << " before " << before.tracked;
  const auto after = s->ledger().snapshot();
  for (const memory::Stage stage : memory::kAllStages) {
    EXPECT_EQ(after[stage].bytes, before[stage].bytes) << memory::stage_name(stage);
    EXPECT_EQ(after[stage].count, before[stage].count) << memory::stage_name(stage);
  }
  EXPECT_EQ(s->status().parameters(0).in_use(), 0u);
  // Cancelling a finished job changes nothing.
  EXPECT_EQ(s->cancel(id), v1::JOB_STATE_CANCELLED);
  EXPECT_EQ(error_of([&] { s->cancel(999); }), ErrorKind::not_found);
}

using testing::CpuProverWith;
using testing::RecordsStarts;

// Both jobs wait in the engine's queue (admission paused); once it resumes, the
// critical partition is the first the device starts. Checked by the order of the
// device's calls, not by how far the normal job got meanwhile.
TEST_F(Service, ACriticalJobOvertakesQueuedNormalPartitions) {
  auto device = std::make_shared<RecordsStarts>();
  BackendSetup backend;
  backend.backends = {device};
  auto s = std::make_unique<ProvingService>(config_, std::move(backend));  // one synthesis worker
  s->pause();
  const std::uint64_t normal = s->submit(request(6, 1, v1::PRIORITY_NORMAL));
  ASSERT_TRUE(eventually([&] { return s->await(normal, 0ms).state() == v1::JOB_STATE_RUNNING; }));
  const std::uint64_t critical = s->submit(request(1, 2, v1::PRIORITY_CRITICAL));
  ASSERT_TRUE(eventually([&] { return s->await(critical, 0ms).state() == v1::JOB_STATE_RUNNING; }));
  s->resume();
  const auto c = finish(*s, critical);
  const auto n = finish(*s, normal);
  ASSERT_EQ(c.state(), v1::JOB_STATE_DONE) << c.error();
  ASSERT_EQ(n.state(), v1::JOB_STATE_DONE) << n.error();
  EXPECT_TRUE(verifies(c, 2));
  EXPECT_TRUE(verifies(n, 1));
  const auto started = device->started();
  ASSERT_EQ(started.size(), 7u);
  const porep_like::PorepLikeCircuit critical_circuit(porep_like::find_preset("tiny"), 2, 1);
  EXPECT_EQ(started.front(), critical_circuit.public_inputs(0)) << "a normal partition was started first";
}

TEST_F(Service, AcceptedJobsSurviveARestart) {
  std::vector<std::uint64_t> ids;
  {
    auto s = start();
    s->pause();  // nothing proves: every job is still queued when the daemon stops
    for (std::uint64_t seed = 1; seed <= 3; ++seed) ids.push_back(s->submit(request(2, seed)));
  }
  auto s = start();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const auto r = finish(*s, ids[i]);
    ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
    EXPECT_TRUE(verifies(r, i + 1));
  }
  // Results are journaled: a third daemon still answers them.
  s.reset();
  auto third = start();
  EXPECT_EQ(third->await(ids[0], 0ms).state(), v1::JOB_STATE_DONE);
  EXPECT_TRUE(verifies(third->await(ids[0], 0ms), 1));
}

TEST_F(Service, AJobTheDaemonDiedOnThreeTimesIsFailed) {
  {
    queue::local::JobStore store(config_.data_dir / "jobs.sqlite");
    std::string bytes;
    request(1).SerializeToString(&bytes);
    const auto id = store.insert(v1::PRIORITY_NORMAL, bytes, 0);
    for (int i = 0; i < 3; ++i) store.mark_running(id);
  }
  auto s = start();
  const auto r = s->await(1, 0ms);
  EXPECT_EQ(r.state(), v1::JOB_STATE_FAILED);
  EXPECT_NE(r.error().find("3 times"), std::string::npos) << r.error();
}

TEST_F(Service, ARecoveredJobsTotalTimeCountsFromItsSubmission) {
  const double an_hour_ago =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count() - 3600;
  std::uint64_t id = 0;
  {
    // As a daemon that stopped an hour ago left it: queued, never started.
    queue::local::JobStore store(config_.data_dir / "jobs.sqlite");
    std::string bytes;
    request(1).SerializeToString(&bytes);
    id = store.insert(v1::PRIORITY_NORMAL, bytes, an_hour_ago);
  }
  auto s = start();
  const auto r = finish(*s, id);
  ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  EXPECT_GE(r.timings().total(), 3600.0);
}

// The journal's job ids: never given out twice, whatever happened to the journal file;
// a journal that is damaged or has lost jobs is refused, naming it, before any job runs.
std::uint64_t insert_job(queue::local::JobStore& store, std::size_t request_bytes = 8) {
  return store.insert(v1::PRIORITY_NORMAL, std::string(request_bytes, 'r'), 0);
}

std::string open_error(const fs::path& journal) {
  try {
    queue::local::JobStore store(journal);
  } catch (const queue::StoreError& e) {
    return e.what();
  }
  return "(opened)";
}

TEST(JobJournal, AJournalStartedAfreshContinuesTheIds) {
  TempDir dir;
  const fs::path journal = dir.path() / "jobs.sqlite";
  {
    queue::local::JobStore store(journal);
    for (int i = 0; i < 3; ++i) insert_job(store);
  }
  // Moved aside by an operator (the last close folded the -wal file into it).
  fs::rename(journal, dir.path() / "jobs.sqlite.damaged");
  queue::local::JobStore fresh(journal);
  EXPECT_EQ(insert_job(fresh), 4u);
  EXPECT_FALSE(fresh.get(1).has_value());
}

TEST(JobJournal, AJournalThatLostJobsIsRefused) {
  TempDir dir;
  const fs::path journal = dir.path() / "jobs.sqlite";
  const fs::path older = dir.path() / "older-copy";
  {
    queue::local::JobStore store(journal);
    insert_job(store);
  }
  fs::copy_file(journal, older);
  {
    queue::local::JobStore store(journal);
    while (insert_job(store) < 17) {
    }
  }
  // An older copy put back (or a -wal file lost): ids 2 … 17 would be given out again.
  fs::copy_file(older, journal, fs::copy_options::overwrite_existing);
  std::string error = open_error(journal);
  EXPECT_NE(error.find(journal.string()), std::string::npos) << error;
  EXPECT_NE(error.find("ids up to 17"), std::string::npos) << error;
  // Truncated to nothing: SQLite would take it for a new, empty journal.
  fs::resize_file(journal, 0);
  error = open_error(journal);
  EXPECT_NE(error.find("ends at job 0"), std::string::npos) << error;
}

TEST(JobJournal, ADamagedJournalIsRefusedNamingIt) {
  TempDir dir;
  const fs::path journal = dir.path() / "jobs.sqlite";
  {
    queue::local::JobStore store(journal);
    for (int i = 0; i < 40; ++i) insert_job(store, 3000);
  }
  // One page in the middle overwritten.
  constexpr std::size_t kPage = 4096;
  const std::size_t pages = fs::file_size(journal) / kPage;
  ASSERT_GT(pages, 8u);
  {
    std::fstream f(journal, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(pages / 2 * kPage));
    const std::string junk(kPage, 'Z');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  std::string error = open_error(journal);
  EXPECT_NE(error.find(journal.string()), std::string::npos) << error;
  EXPECT_NE(error.find("damaged"), std::string::npos) << error;
  // Not a journal at all.
  {
    std::ofstream f(journal, std::ios::binary | std::ios::trunc);
    f << std::string(2 * kPage, 'Z');
  }
  error = open_error(journal);
  EXPECT_NE(error.find("damaged"), std::string::npos) << error;
}

TEST_F(Service, BadRequestsAreRefusedWithTheReason) {
  auto s = start();
  auto refused = [&](v1::SubmitProofRequest r) { return error_of([&] { s->submit(r); }); };
  auto r = request(1);
  r.mutable_porep()->set_preset("huge");
  EXPECT_EQ(refused(r), ErrorKind::invalid_argument);
  r = request(0);
  EXPECT_EQ(refused(r), ErrorKind::invalid_argument);
  r = request(5000);
  EXPECT_EQ(refused(r), ErrorKind::invalid_argument);
  r = request(1);
  r.set_priority(static_cast<v1::Priority>(42));
  EXPECT_EQ(refused(r), ErrorKind::invalid_argument);
  r = request(1);
  r.mutable_porep()->set_circuit("sha-chain");
  EXPECT_EQ(refused(r), ErrorKind::invalid_argument);
  r = request(1);
  r.clear_porep();
  EXPECT_EQ(refused(r), ErrorKind::invalid_argument);
  r = request(1);
  r.set_label(std::string(1000, 'x'));
  EXPECT_EQ(refused(r), ErrorKind::invalid_argument);

  // Paths: relative, missing, outside the roots, escaping by "..", by a link, a FIFO.
  auto with_file = [&](const std::string& file) {
    auto q = request(1);
    q.mutable_porep()->set_parameter_file(file);
    return refused(q);
  };
  EXPECT_EQ(with_file("tiny.zkp"), ErrorKind::invalid_argument);
  EXPECT_EQ(with_file((key_.parent_path() / "missing.zkp").string()), ErrorKind::invalid_argument);
  EXPECT_EQ(with_file("/etc/passwd"), ErrorKind::permission_denied);
  EXPECT_EQ(with_file((key_.parent_path() / ".." / "data" / "jobs.sqlite").string()), ErrorKind::permission_denied);
  fs::create_symlink("/etc/passwd", key_.parent_path() / "link.zkp");
  EXPECT_EQ(with_file((key_.parent_path() / "link.zkp").string()), ErrorKind::permission_denied);
  ASSERT_EQ(::mkfifo((key_.parent_path() / "fifo.zkp").c_str(), 0600), 0);
  EXPECT_EQ(with_file((key_.parent_path() / "fifo.zkp").string()), ErrorKind::invalid_argument);
  EXPECT_EQ(with_file(key_.parent_path().string()), ErrorKind::invalid_argument);

  // A corrupt key fails its job with the file's name; the daemon goes on.
  const fs::path corrupt = key_.parent_path() / "corrupt.zkp";
  fs::copy_file(key_, corrupt);
  fs::resize_file(corrupt, 5000);
  auto q = request(1);
  q.mutable_porep()->set_parameter_file(corrupt.string());
  const auto failed = finish(*s, s->submit(q));
  EXPECT_EQ(failed.state(), v1::JOB_STATE_FAILED);
  EXPECT_NE(failed.error().find("corrupt.zkp"), std::string::npos) << failed.error();
  EXPECT_EQ(finish(*s, s->submit(request(1))).state(), v1::JOB_STATE_DONE);
  EXPECT_EQ(error_of([&] { s->await(12345, 0ms); }), ErrorKind::not_found);
}

TEST_F(Service, ResidencyRefCountsLruAndIdleEviction) {
  const fs::path other = key_.parent_path() / "other.zkp";
  write_key(other, 6);
  v1::PreloadParamsRequest preload;
  preload.set_preset("tiny");
  std::size_t key_bytes = 0;
  {
    auto s = start();
    preload.set_parameter_file(key_.string());
    const auto loaded = s->preload(preload);
    key_bytes = loaded.parameters().bytes();
    EXPECT_GT(loaded.load_seconds(), 0.0);
    EXPECT_EQ(loaded.parameters().tier(), "host");
    EXPECT_EQ(s->preload(preload).load_seconds(), 0.0);  // already resident
    // In use: not evicted; once idle, evicted and its bytes leave the ledger.
    s->pause();
    const std::uint64_t id = s->submit(request(1));
    ASSERT_TRUE(eventually([&] { return s->await(id, 0ms).state() == v1::JOB_STATE_RUNNING; }));
    EXPECT_EQ(error_of([&] { s->evict(key_.string()); }), ErrorKind::failed_precondition);
    s->resume();
    ASSERT_EQ(finish(*s, id).state(), v1::JOB_STATE_DONE);
    EXPECT_TRUE(eventually([&] { return s->status().parameters(0).in_use() == 0; }));
    EXPECT_EQ(s->evict(key_.string()), key_bytes);
    EXPECT_TRUE(eventually([&] { return s->ledger().snapshot()[memory::Stage::parameters].bytes == 0; }));
    EXPECT_EQ(s->status().parameters_size(), 0);
  }
  {
    // A budget that holds one key (the two are the same size) and a working set: the
    // second key evicts the least recently used idle one.
    config::ServiceConfig c = config_;
    c.budget_bytes = key_bytes + key_bytes / 2;
    auto s = start(c);
    preload.set_parameter_file(key_.string());
    s->preload(preload);
    preload.set_parameter_file(other.string());
    s->preload(preload);
    const auto status = s->status();
    ASSERT_EQ(status.parameters_size(), 1);
    EXPECT_EQ(status.parameters(0).parameter_file(), other.string());
    // And a job on the first key brings it back, evicting the second.
    const auto r = finish(*s, s->submit(request(1)));
    EXPECT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
    EXPECT_EQ(s->status().parameters(0).parameter_file(), key_.string());
  }
  {
    config::ServiceConfig c = config_;
    c.param_idle_seconds = 0.3;
    auto s = start(c);
    ASSERT_EQ(finish(*s, s->submit(request(1))).state(), v1::JOB_STATE_DONE);
    EXPECT_TRUE(eventually([&] { return s->status().parameters_size() == 0; }));
    EXPECT_TRUE(eventually([&] { return s->ledger().snapshot()[memory::Stage::parameters].bytes == 0; }));
  }
}

TEST_F(Service, DrainLeavesUnfinishedJobsQueuedForTheNextStart) {
  std::uint64_t id = 0;
  {
    auto s = start();
    id = s->submit(request(64));
    ASSERT_TRUE(eventually([&] { return s->await(id, 0ms).partitions_done() >= 1; }));
    EXPECT_EQ(s->drain(0s), 1u);
    EXPECT_EQ(error_of([&] { s->submit(request(1)); }), ErrorKind::unavailable);
    EXPECT_EQ(error_of([&] { s->await(id, 100ms); }), ErrorKind::unavailable);
  }
  queue::local::JobStore store(config_.data_dir / "jobs.sqlite");
  const auto record = store.get(id);
  ASSERT_TRUE(record.has_value());
  EXPECT_EQ(record->status, queue::JobStatus::queued);
  EXPECT_EQ(record->attempts, 0);
}

TEST_F(Service, GrpcFrontAuthenticatesBoundsRequestsAndStreamsSnapshots) {
  auto s = start();
  config::ServiceConfig c = config_;
  c.listen = "unix:" + (dir_.path() / "zkpipe.sock").string();
  c.max_request_bytes = 4096;
  api::GrpcServer server(*s, c, "sesame");
  auto stub = v1::Prover::NewStub(grpc::CreateChannel(c.listen, grpc::InsecureChannelCredentials()));

  auto call_status = [&](const std::string& token) {
    grpc::ClientContext ctx;
    if (!token.empty()) ctx.AddMetadata("authorization", "Bearer " + token);
    v1::GetStatusResponse r;
    return stub->GetStatus(&ctx, {}, &r).error_code();
  };
  EXPECT_EQ(call_status(""), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(call_status("sesam"), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(call_status("sesame"), grpc::StatusCode::OK);

  auto submit = [&](const v1::SubmitProofRequest& r, v1::SubmitProofResponse& out) {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer sesame");
    return stub->SubmitProof(&ctx, r, &out);
  };
  v1::SubmitProofResponse out;
  auto big = request(1);
  big.set_label(std::string(8192, 'x'));
  EXPECT_EQ(submit(big, out).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  auto bad = request(1);
  bad.mutable_porep()->set_parameter_file("/etc/../etc/shadow");
  const grpc::Status denied = submit(bad, out);
  EXPECT_EQ(denied.error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_NE(denied.error_message().find("outside the allowed roots"), std::string::npos);
  bad = request(1);
  bad.mutable_porep()->set_preset("nope");
  EXPECT_EQ(submit(bad, out).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  // Bytes that are no SubmitProofRequest: refused, and the daemon goes on.
  EXPECT_EQ(raw_unary(grpc::CreateChannel(c.listen, grpc::InsecureChannelCredentials()), "/zkpipe.v1.Prover/SubmitProof",
                      "\x0a\xff\xff\xff\xff\x0f garbage", "sesame")
                .first.error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(call_status("sesame"), grpc::StatusCode::OK);
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer sesame");
    v1::AwaitProofResponse r;
    ASSERT_TRUE(stub->Prove(&ctx, request(1), &r).ok());
    EXPECT_EQ(r.state(), v1::JOB_STATE_DONE);
    EXPECT_TRUE(verifies(r, 7));
  }
  {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer sesame");
    v1::WatchBuffersRequest w;
    w.set_count(3);
    w.set_interval_ms(50);
    auto reader = stub->WatchBuffers(&ctx, w);
    v1::LedgerSnapshot snapshot;
    int n = 0;
    while (reader->Read(&snapshot)) {
      ++n;
      EXPECT_EQ(snapshot.stages_size(), static_cast<int>(memory::kStageCount));
      EXPECT_GT(snapshot.rss_bytes(), 0u);
    }
    EXPECT_TRUE(reader->Finish().ok());
    EXPECT_EQ(n, 3);
  }

  metrics::MetricsHttpServer http(*s, "127.0.0.1:0", "sesame");
  httplib::Client client("127.0.0.1", http.port());
  EXPECT_EQ(client.Get("/metrics")->status, 401);
  const auto res = client.Get("/metrics", {{"Authorization", "Bearer sesame"}});
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_NE(res->body.find("zkpipe_jobs_finished_total{state=\"done\"} 1"), std::string::npos) << res->body;
  EXPECT_NE(res->body.find("zkpipe_ledger_bytes{stage=\"parameters\"}"), std::string::npos);
  EXPECT_NE(res->body.find("zkpipe_job_seconds_count 1"), std::string::npos);
}

// Parked calls hold no thread: 600 AwaitProof calls wait on one job while Submit,
// Status and Cancel are answered (their deadline, a minute so that a loaded machine
// does not fail it, only catches starvation); one
// more wait from the same client is refused by max_waits_per_peer; cancelling the
// job answers every parked call, and their places come back.
TEST_F(Service, ParkedWaitsStarveNoCallAndAreLimitedPerClient) {
  constexpr int kParked = 600;
  auto s = start();
  s->pause();  // the awaited job stays unfinished
  config::ServiceConfig c = config_;
  c.listen = "unix:" + (dir_.path() / "zkpipe.sock").string();
  c.max_waits_per_peer = kParked;
  api::GrpcServer server(*s, c, "");
  auto stub = v1::Prover::NewStub(grpc::CreateChannel(c.listen, grpc::InsecureChannelCredentials()));
  auto within = [](std::chrono::seconds limit) {
    auto ctx = std::make_unique<grpc::ClientContext>();
    ctx->set_deadline(std::chrono::system_clock::now() + limit);
    return ctx;
  };
  v1::SubmitProofResponse submitted;
  ASSERT_TRUE(stub->SubmitProof(within(30s).get(), request(1, 1), &submitted).ok());
  const std::uint64_t job = submitted.job_id();

  struct Parked {
    grpc::ClientContext ctx;
    v1::AwaitProofRequest request;
    v1::AwaitProofResponse response;
    grpc::Status status;
  };
  std::vector<std::unique_ptr<Parked>> parked;
  std::mutex m;
  std::condition_variable cv;
  int answered = 0;
  for (int i = 0; i < kParked; ++i) {
    auto& p = parked.emplace_back(std::make_unique<Parked>());
    p->request.set_job_id(job);
    p->request.set_wait_ms(60000);
    stub->async()->AwaitProof(&p->ctx, &p->request, &p->response, [&, call = p.get()](grpc::Status status) {
      std::lock_guard lock(m);
      call->status = std::move(status);
      ++answered;
      cv.notify_all();
    });
  }
  // Every one parked (the daemon says so; probing earlier would take a place one
  // of them needs): the next wait from this client is over the limit.
  auto one_more = [&] {
    v1::AwaitProofRequest r;
    r.set_job_id(job);
    v1::AwaitProofResponse out;
    return stub->AwaitProof(within(30s).get(), r, &out);
  };
  EXPECT_TRUE(eventually([&] { return s->status().awaits_parked() == kParked; })) << s->status().awaits_parked();
  const grpc::Status over = one_more();
  EXPECT_EQ(over.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << over.error_message();
  EXPECT_NE(over.error_message().find("max_waits_per_peer"), std::string::npos) << over.error_message();

  v1::SubmitProofResponse other;
  const grpc::Status submit = stub->SubmitProof(within(60s).get(), request(1, 2), &other);
  EXPECT_TRUE(submit.ok()) << submit.error_code() << " " << submit.error_message();
  v1::GetStatusResponse status;
  const grpc::Status got = stub->GetStatus(within(60s).get(), {}, &status);
  EXPECT_TRUE(got.ok()) << got.error_code() << " " << got.error_message();
  v1::CancelProofRequest cancel;
  cancel.set_job_id(job);
  v1::CancelProofResponse cancelled;
  const grpc::Status cancel_status = stub->CancelProof(within(60s).get(), cancel, &cancelled);
  EXPECT_TRUE(cancel_status.ok()) << cancel_status.error_code() << " " << cancel_status.error_message();
  EXPECT_EQ(cancelled.state(), v1::JOB_STATE_CANCELLED);

  {
    std::unique_lock lock(m);
    const bool all = cv.wait_for(lock, 60s, [&] { return answered == kParked; });
    if (!all) {
      // The calls must end before their contexts go.
      for (const auto& p : parked) p->ctx.TryCancel();
      cv.wait_for(lock, 60s, [&] { return answered == kParked; });
    }
    ASSERT_TRUE(all) << answered << " answered";
  }
  for (const auto& p : parked) {
    EXPECT_TRUE(p->status.ok()) << p->status.error_message();
    EXPECT_EQ(p->response.state(), v1::JOB_STATE_CANCELLED);
  }
  EXPECT_TRUE(one_more().ok());
  s->resume();
  EXPECT_EQ(finish(*s, other.job_id()).state(), v1::JOB_STATE_DONE);
}

// A client that leaves: its parked AwaitProof and WatchBuffers end, its Prove's job
// is cancelled (nobody else knows its id), and their places come back.
TEST_F(Service, ParkedCallsOfAClientThatLeavesEnd) {
  auto s = start();
  s->pause();
  config::ServiceConfig c = config_;
  c.listen = "unix:" + (dir_.path() / "zkpipe.sock").string();
  c.max_waits_per_peer = 3;
  api::GrpcServer server(*s, c, "");
  auto stub = v1::Prover::NewStub(grpc::CreateChannel(c.listen, grpc::InsecureChannelCredentials()));
  const std::uint64_t job = s->submit(request(1, 1));

  grpc::ClientContext await_ctx, prove_ctx, watch_ctx;
  v1::AwaitProofRequest await;
  await.set_job_id(job);
  await.set_wait_ms(60000);
  v1::AwaitProofResponse awaited, proved;
  const v1::SubmitProofRequest prove = request(1, 2);
  std::promise<grpc::Status> await_done, prove_done;
  stub->async()->AwaitProof(&await_ctx, &await, &awaited, [&](grpc::Status st) { await_done.set_value(st); });
  stub->async()->Prove(&prove_ctx, &prove, &proved, [&](grpc::Status st) { prove_done.set_value(st); });
  v1::WatchBuffersRequest w;
  w.set_interval_ms(60000);
  auto reader = stub->WatchBuffers(&watch_ctx, w);
  v1::LedgerSnapshot snapshot;
  ASSERT_TRUE(reader->Read(&snapshot));
  // All three parked (the Prove's job exists): a fourth call is over the limit.
  auto one_more = [&] {
    grpc::ClientContext ctx;
    v1::AwaitProofRequest r;
    r.set_job_id(job);
    v1::AwaitProofResponse out;
    return stub->AwaitProof(&ctx, r, &out).error_code();
  };
  auto jobs_queued = [&] {
    std::uint32_t jobs = 0;
    const v1::GetStatusResponse status = s->status();
    for (const auto& q : status.queue()) jobs += q.jobs();
    return jobs;
  };
  EXPECT_TRUE(eventually([&] { return jobs_queued() == 2 && one_more() == grpc::StatusCode::RESOURCE_EXHAUSTED; }));
  await_ctx.TryCancel();
  prove_ctx.TryCancel();
  watch_ctx.TryCancel();
  auto await_future = await_done.get_future();
  auto prove_future = prove_done.get_future();
  ASSERT_EQ(await_future.wait_for(30s), std::future_status::ready);
  ASSERT_EQ(prove_future.wait_for(30s), std::future_status::ready);
  EXPECT_EQ(await_future.get().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(prove_future.get().error_code(), grpc::StatusCode::CANCELLED);
  EXPECT_EQ(reader->Finish().error_code(), grpc::StatusCode::CANCELLED);
  // The Prove's job is cancelled; the awaited one is not; the places are free.
  EXPECT_TRUE(eventually([&] { return jobs_queued() == 1 && s->status().jobs_cancelled() == 1; }));
  EXPECT_NE(s->await(job, 0ms).state(), v1::JOB_STATE_CANCELLED);
  EXPECT_TRUE(eventually([&] { return one_more() == grpc::StatusCode::OK; }));
  s->resume();
  EXPECT_EQ(finish(*s, job).state(), v1::JOB_STATE_DONE);
}

// grpc.health.v1.Health answers SERVING, then NOT_SERVING once the daemon drains,
// without a token (probes carry none); reflection, v1alpha and v1, lists the services.
TEST_F(Service, GrpcHealthTurnsNotServingOnDrainAndReflectionListsTheProver) {
  auto s = start();
  config::ServiceConfig c = config_;
  c.listen = "unix:" + (dir_.path() / "zkpipe.sock").string();
  api::GrpcServer server(*s, c, "sesame");
  auto channel = grpc::CreateChannel(c.listen, grpc::InsecureChannelCredentials());
  EXPECT_EQ(health_of(channel, ""), 1);
  EXPECT_EQ(health_of(channel, "zkpipe.v1.Prover"), 1);
  for (const std::string version : {"v1alpha", "v1"}) {
    const auto services = reflected_services(channel, version);
    for (const char* name : {"zkpipe.v1.Prover", "cuzk.v1.ProvingEngine", "grpc.health.v1.Health"}) {
      EXPECT_NE(std::find(services.begin(), services.end(), name), services.end()) << version << ": " << name;
    }
  }
  EXPECT_EQ(server.drain(0s), 0u);
  EXPECT_EQ(health_of(channel, ""), 2);
  EXPECT_EQ(health_of(channel, "zkpipe.v1.Prover"), 2);
  // Draining: a submit is refused UNAVAILABLE.
  const auto [submit, unused] =
      raw_unary(channel, "/zkpipe.v1.Prover/SubmitProof", request(1).SerializeAsString(), "sesame");
  EXPECT_EQ(submit.error_code(), grpc::StatusCode::UNAVAILABLE) << submit.error_message();
}

// Reflection v1, as grpcurl asks it: the file that defines cuzk's service, parsed
// into its descriptor; its dependencies once per stream; an unknown symbol NOT_FOUND.
TEST_F(Service, ReflectionV1DescribesTheServices) {
  auto s = start();
  config::ServiceConfig c = config_;
  c.listen = "unix:" + (dir_.path() / "zkpipe.sock").string();
  api::GrpcServer server(*s, c, "");
  auto stub = grpc::reflection::v1::ServerReflection::NewStub(
      grpc::CreateChannel(c.listen, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  auto stream = stub->ServerReflectionInfo(&ctx);
  auto ask = [&](const grpc::reflection::v1::ServerReflectionRequest& request) {
    grpc::reflection::v1::ServerReflectionResponse response;
    EXPECT_TRUE(stream->Write(request));
    EXPECT_TRUE(stream->Read(&response));
    return response;
  };
  grpc::reflection::v1::ServerReflectionRequest request;
  request.set_file_containing_symbol("cuzk.v1.ProvingEngine");
  const auto cuzk = ask(request);
  ASSERT_EQ(cuzk.file_descriptor_response().file_descriptor_proto_size(), 1) << cuzk.DebugString();
  google::protobuf::FileDescriptorProto file;
  ASSERT_TRUE(file.ParseFromString(cuzk.file_descriptor_response().file_descriptor_proto(0)));
  EXPECT_EQ(file.name(), "cuzk/v1/proving.proto");
  ASSERT_EQ(file.service_size(), 1);
  EXPECT_EQ(file.service(0).name(), "ProvingEngine");
  EXPECT_EQ(cuzk.original_request().file_containing_symbol(), "cuzk.v1.ProvingEngine");
  request.set_file_containing_symbol("zkpipe.v1.Prover.SubmitProof");
  const auto prover = ask(request);
  ASSERT_GE(prover.file_descriptor_response().file_descriptor_proto_size(), 1);
  ASSERT_TRUE(file.ParseFromString(prover.file_descriptor_response().file_descriptor_proto(0)));
  EXPECT_EQ(file.name(), "zkpipe/v1/zkpipe.proto");
  request.set_file_containing_symbol("no.such.Service");
  const auto unknown = ask(request);
  EXPECT_EQ(unknown.error_response().error_code(), static_cast<int>(grpc::StatusCode::NOT_FOUND));
  request.set_file_by_filename("cuzk/v1/proving.proto");
  EXPECT_EQ(ask(request).file_descriptor_response().file_descriptor_proto_size(), 1) << "asked again, sent again";
  EXPECT_TRUE(stream->WritesDone());
  EXPECT_TRUE(stream->Finish().ok());
}

// Bytes that are no valid request: UNAUTHENTICATED without the token (checked
// first), INVALID_ARGUMENT with the reason with it; WatchBuffers' bounds.
TEST_F(Service, GrpcRefusesBadBytesAfterTheTokenAndBoundsWatches) {
  auto s = start();
  config::ServiceConfig c = config_;
  c.listen = "unix:" + (dir_.path() / "zkpipe.sock").string();
  api::GrpcServer server(*s, c, "sesame");
  auto channel = grpc::CreateChannel(c.listen, grpc::InsecureChannelCredentials());
  const std::string garbage = "\x0a\xff\xff\xff\xff\x0f garbage";
  auto bad_label = request(1);
  bad_label.set_label("\xc3\x28");
  for (const std::string method : {"SubmitProof", "Prove"}) {
    const std::string path = "/zkpipe.v1.Prover/" + method;
    EXPECT_EQ(raw_unary(channel, path, garbage).first.error_code(), grpc::StatusCode::UNAUTHENTICATED) << method;
    const grpc::Status bytes = raw_unary(channel, path, garbage, "sesame").first;
    EXPECT_EQ(bytes.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << method;
    EXPECT_NE(bytes.error_message().find("not a protobuf encoding"), std::string::npos) << bytes.error_message();
    const grpc::Status utf8 = raw_unary(channel, path, bad_label.SerializeAsString(), "sesame").first;
    EXPECT_EQ(utf8.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << method;
    EXPECT_NE(utf8.error_message().find("zkpipe.v1.SubmitProofRequest.label is not valid UTF-8"), std::string::npos)
        << utf8.error_message();
  }
  for (const std::string method : {"AwaitProof", "CancelProof", "GetStatus", "EvictParams"}) {
    const grpc::Status st = raw_unary(channel, "/zkpipe.v1.Prover/" + method, garbage, "sesame").first;
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << method << ": " << st.error_message();
  }

  auto stub = v1::Prover::NewStub(channel);
  auto watch = [&](std::uint32_t interval_ms, std::uint32_t count) {
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 30s);
    ctx.AddMetadata("authorization", "Bearer sesame");
    v1::WatchBuffersRequest w;
    w.set_interval_ms(interval_ms);
    w.set_count(count);
    auto reader = stub->WatchBuffers(&ctx, w);
    v1::LedgerSnapshot snapshot;
    while (reader->Read(&snapshot)) {
    }
    return reader->Finish();
  };
  for (const std::uint32_t absurd : {1u, 49u, 60001u, 4000000000u}) {
    const grpc::Status st = watch(absurd, 1);
    EXPECT_EQ(st.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << absurd;
    EXPECT_NE(st.error_message().find("interval_ms must be 0 (1000) or between 50 and 60000"), std::string::npos)
        << st.error_message();
  }
  const grpc::Status many = watch(50, 4000000000u);
  EXPECT_EQ(many.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_NE(many.error_message().find("count must be at most 1000000"), std::string::npos) << many.error_message();
  EXPECT_TRUE(watch(0, 1).ok());
}

// A second server on a socket a live one listens on refuses to start, naming the
// path; a socket nobody listens on (its daemon died) is taken over.
TEST_F(Service, ASecondServerRefusesALiveSocketAndTakesOverAStaleOne) {
  auto s = start();
  config::ServiceConfig c = config_;
  const fs::path path = dir_.path() / "zkpipe.sock";
  c.listen = "unix:" + path.string();
  {
    api::GrpcServer first(*s, c, "");
    try {
      api::GrpcServer second(*s, c, "");
      ADD_FAILURE() << "a second server took over a live socket";
    } catch (const config::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(path.string() + " is in use"), std::string::npos) << e.what();
    }
    auto stub = v1::Prover::NewStub(grpc::CreateChannel(c.listen, grpc::InsecureChannelCredentials()));
    grpc::ClientContext ctx;
    v1::GetStatusResponse r;
    EXPECT_TRUE(stub->GetStatus(&ctx, {}, &r).ok()) << "the first server lost its socket";
  }
  // A bound socket that nobody listens on, as a daemon killed with kill -9 leaves it.
  fs::remove(path);
  {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)), 0);
    ::close(fd);
  }
  ASSERT_TRUE(fs::is_socket(path));
  api::GrpcServer again(*s, c, "");
  auto stub = v1::Prover::NewStub(grpc::CreateChannel(c.listen, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  v1::GetStatusResponse r;
  EXPECT_TRUE(stub->GetStatus(&ctx, {}, &r).ok());
}

class CircomService : public Service {
 protected:
  void SetUp() override {
    Service::SetUp();
    const fs::path fixtures = fs::path(ZKPIPE_SOURCE_DIR) / "tests/fixtures/chain-2e10";
    zkey_ = key_.parent_path() / "circuit_final.zkey";
    wtns_ = key_.parent_path() / "witness.wtns";
    vk_ = fixtures / "verification_key.json";
    fs::copy_file(fixtures / "circuit_final.zkey", zkey_);
    fs::copy_file(fixtures / "witness.wtns", wtns_);
  }

  v1::SubmitProofRequest circom(const fs::path& zkey, const fs::path& wtns) const {
    v1::SubmitProofRequest r;
    r.mutable_circom()->set_zkey(zkey.string());
    r.mutable_circom()->set_witness(wtns.string());
    return r;
  }

  // As `zkpipe groth16 verify` checks them: the JSON texts against the fixture's key.
  bool verifies_json(const v1::AwaitProofResponse& r) const {
    const groth16::VerifyingKey vk = formats::verifying_key_from_json(
        io::read_bounded_file(vk_, formats::kMaxVerifyingKeyJsonBytes, "vk"), vk_.string());
    const auto inputs = formats::public_from_json(r.public_json(), "public.json");
    const auto proof = formats::proof_from_json(r.proof_json(), "proof.json");
    return inputs.size() + 1 == vk.ic.size() && groth16::verify(groth16::PreparedVerifyingKey(vk), proof, inputs);
  }

  fs::path zkey_, wtns_, vk_;
};

TEST_F(CircomService, ProvesAZkeyAndWitnessAsSnarkjsJson) {
  auto s = start();
  const auto r = finish(*s, s->submit(circom(zkey_, wtns_)));
  ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  EXPECT_EQ(r.partitions(), 1u);
  EXPECT_EQ(r.proof().size(), 192u);
  EXPECT_TRUE(verifies_json(r));
  // The public signals are the fixture's (snarkjs's public.json for this witness).
  const fs::path fixtures = fs::path(ZKPIPE_SOURCE_DIR) / "tests/fixtures/chain-2e10";
  EXPECT_EQ(formats::public_from_json(r.public_json(), "public.json"),
            formats::public_from_json(io::read_bounded_file(fixtures / "public.json", 1 << 20, "public.json"),
                                      "public.json"));
  EXPECT_GT(r.timings().parameter_load(), 0.0);
  // Warm: the .zkey stays resident; its coefficient lists are charged with the key.
  const auto warm = finish(*s, s->submit(circom(zkey_, wtns_)));
  ASSERT_EQ(warm.state(), v1::JOB_STATE_DONE) << warm.error();
  EXPECT_EQ(warm.timings().parameter_load(), 0.0);
  const auto status = s->status();
  ASSERT_EQ(status.parameters_size(), 1);
  EXPECT_GT(status.parameters(0).bytes(), fs::file_size(zkey_) / 2);

  // A proof tampered with does not verify (the check above can fail).
  auto tampered = warm;
  tampered.set_public_json(formats::public_to_json(std::vector<ff::Fr>(
      formats::public_from_json(warm.public_json(), "p").size(), ff::Fr::one())));
  EXPECT_FALSE(verifies_json(tampered));

  // The result is journaled: a restarted daemon answers it.
  const std::uint64_t id = s->submit(circom(zkey_, wtns_));
  ASSERT_EQ(finish(*s, id).state(), v1::JOB_STATE_DONE);
  s.reset();
  auto again = start();
  const auto journaled = again->await(id, 0ms);
  ASSERT_EQ(journaled.state(), v1::JOB_STATE_DONE);
  EXPECT_TRUE(verifies_json(journaled));
}

TEST_F(CircomService, RefusesFilesOutsideTheRootsAndFailsABadWitness) {
  auto s = start();
  EXPECT_EQ(error_of([&] { s->submit(circom(zkey_, "/etc/passwd")); }), ErrorKind::permission_denied);
  EXPECT_EQ(error_of([&] { s->submit(circom("/etc/passwd", wtns_)); }), ErrorKind::permission_denied);
  EXPECT_EQ(error_of([&] { s->submit(circom(zkey_, key_.parent_path() / ".." / "data" / "jobs.sqlite")); }),
            ErrorKind::permission_denied);
  EXPECT_EQ(error_of([&] { s->submit(circom(zkey_, "")); }), ErrorKind::invalid_argument);
  EXPECT_EQ(error_of([&] { s->submit(circom("", wtns_)); }), ErrorKind::invalid_argument);
  // A missing .wtns is named as what it is.
  try {
    s->submit(circom(zkey_, key_.parent_path() / "missing.wtns"));
    ADD_FAILURE() << "a missing witness was accepted";
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("witness file"), std::string::npos) << e.what();
  }

  // A file that is no .zkey: failed, naming it.
  const auto wrong = finish(*s, s->submit(circom(key_, wtns_)));
  EXPECT_EQ(wrong.state(), v1::JOB_STATE_FAILED);
  EXPECT_NE(wrong.error().find("tiny.zkp"), std::string::npos) << wrong.error();

  // A witness that does not satisfy the circuit: its proof does not verify, nothing is returned.
  const fs::path bad = key_.parent_path() / "bad.wtns";
  fs::copy_file(wtns_, bad);
  {
    const auto size = fs::file_size(bad);
    std::fstream f(bad, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size - 32));  // the last wire's value: small, below r
    const char byte = 5;
    f.write(&byte, 1);
  }
  const auto unsatisfied = finish(*s, s->submit(circom(zkey_, bad)));
  EXPECT_EQ(unsatisfied.state(), v1::JOB_STATE_FAILED);
  EXPECT_TRUE(unsatisfied.proof_json().empty());
  EXPECT_EQ(finish(*s, s->submit(circom(zkey_, wtns_))).state(), v1::JOB_STATE_DONE);
}

TEST_F(CircomService, AWitnessSwappedOutsideTheRootAfterSubmitIsNotRead) {
  // The witness named through a link; a well-formed witness outside the root that
  // does not satisfy the circuit.
  const fs::path link = key_.parent_path() / "link.wtns";
  fs::create_symlink(wtns_.filename(), link);
  const fs::path outside = dir_.path() / "outside.wtns";
  fs::copy_file(wtns_, outside);
  {
    std::fstream f(outside, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(outside) - 32));
    const char byte = 5;
    f.write(&byte, 1);
  }
  auto s = start();
  s->pause();
  const std::uint64_t id = s->submit(circom(zkey_, link));
  ASSERT_TRUE(eventually([&] { return s->await(id, 0ms).state() == v1::JOB_STATE_RUNNING; }));
  // Accepted and queued in the engine, not synthesized: the link and the file it
  // resolved to are swapped to point outside the root.
  fs::remove(link);
  fs::create_symlink(outside, link);
  const fs::path checked = dir_.path() / "checked.wtns";
  fs::rename(wtns_, checked);
  fs::create_symlink(outside, wtns_);
  s->resume();
  const auto r = finish(*s, id);
  ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  EXPECT_TRUE(verifies_json(r));
}

TEST_F(Service, AKeyOfAnotherPresetIsRefused) {
  auto s = start();
  // First sight of the key: the load compares counts before compiling an evaluator.
  auto other = request(1);
  other.mutable_porep()->set_preset("2e16");
  const auto failed = finish(*s, s->submit(other));
  ASSERT_EQ(failed.state(), v1::JOB_STATE_FAILED);
  EXPECT_NE(failed.error().find("was set up for another circuit than porep-like/2e16"), std::string::npos)
      << failed.error();
  EXPECT_FALSE(fs::exists(fs::path(key_).replace_extension(".zkpev")));
  // Its counts known, the key is refused at submit.
  try {
    s->submit(other);
    ADD_FAILURE() << "accepted a key of another preset";
  } catch (const ServiceError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("porep-like/2e16"), std::string::npos) << e.what();
  }
  v1::PreloadParamsRequest preload;
  preload.set_parameter_file(key_.string());
  preload.set_preset("2e16");
  EXPECT_EQ(error_of([&] { s->preload(preload); }), ErrorKind::invalid_argument);
  // The right preset still proves.
  EXPECT_EQ(finish(*s, s->submit(request(1))).state(), v1::JOB_STATE_DONE);
}

// A parameter load in progress holds up no job whose key is resident. The load is
// held, not merely slow: the budget holds two keys and a working set, so loading a
// third evicts the least recently used idle one, and the test's tier release of that
// key (which a GPU tier may spend waiting for a start() in progress) waits until the
// test lets it go. Jobs on the resident key must complete meanwhile; the deadline is
// reached only if they wait behind the load.
TEST_F(Service, ALongParameterLoadHoldsUpNoResidentJob) {
  const fs::path idle = key_.parent_path() / "idle.zkp";
  const fs::path loading = key_.parent_path() / "loading.zkp";
  write_key(idle, 6);
  write_key(loading, 7);
  v1::PreloadParamsRequest preload;
  preload.set_preset("tiny");
  std::size_t key_bytes = 0;
  {
    preload.set_parameter_file(key_.string());
    key_bytes = start()->preload(preload).parameters().bytes();
  }
  std::promise<void> release_began;
  std::promise<void> let_go;
  std::shared_future<void> released = let_go.get_future().share();
  std::once_flag first_release;
  BackendSetup backend;
  backend.backends = {std::make_shared<groth16::CpuProver>()};
  backend.tiers.release = [&](const groth16::ProvingKey&) {
    std::call_once(first_release, [&] { release_began.set_value(); });
    released.wait_for(60s);
  };
  config::ServiceConfig c = config_;
  c.budget_bytes = 2 * key_bytes + key_bytes / 2;
  auto s = std::make_unique<ProvingService>(c, std::move(backend));
  // The idle key first: it is the least recently used when the third one needs room.
  preload.set_parameter_file(idle.string());
  s->preload(preload);
  preload.set_parameter_file(key_.string());
  s->preload(preload);

  auto held = request(1, 3);
  held.mutable_porep()->set_parameter_file(loading.string());
  const std::uint64_t held_id = s->submit(held);
  // No assertion may return before the hold is let go: the service's shutdown would
  // wait at it.
  const bool load_held = release_began.get_future().wait_for(60s) == std::future_status::ready;
  std::vector<v1::AwaitProofResponse> done;
  if (load_held) {
    std::vector<std::uint64_t> resident;
    for (std::uint64_t seed = 1; seed <= 2; ++seed) resident.push_back(s->submit(request(1, seed)));
    for (const std::uint64_t id : resident) done.push_back(s->await(id, 60s));
  }
  const v1::JobState held_state = s->await(held_id, 0ms).state();
  let_go.set_value();
  ASSERT_TRUE(load_held) << "the load never evicted the idle key";
  for (std::size_t i = 0; i < done.size(); ++i) {
    ASSERT_EQ(done[i].state(), v1::JOB_STATE_DONE) << "a job on the resident key waited behind the load";
    EXPECT_TRUE(verifies(done[i], i + 1));
  }
  EXPECT_EQ(held_state, v1::JOB_STATE_QUEUED) << "the held load ended before the other jobs";
  const auto r = finish(*s, held_id);
  ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  EXPECT_GT(r.timings().parameter_load(), 0.0) << "its key was loaded for it";
}

TEST_F(Service, AKeyTruncatedWhileResidentFailsTheNextJobAndTheDaemonGoesOn) {
  auto s = start();
  ASSERT_EQ(finish(*s, s->submit(request(1, 1))).state(), v1::JOB_STATE_DONE);
  const auto size = fs::file_size(key_);
  fs::resize_file(key_, 4096);
  // Without the check, reading the mapping past its new end kills the process (SIGBUS).
  const auto failed = finish(*s, s->submit(request(1, 2)));
  ASSERT_EQ(failed.state(), v1::JOB_STATE_FAILED);
  EXPECT_EQ(failed.error(), "parameter file " + key_.string() + " changed since it was loaded (size " +
                                std::to_string(size) + " → 4096)");
  EXPECT_EQ(s->status().parameters_size(), 0) << "the stale mapping stays resident";
  write_key(key_, 5);
  const auto again = finish(*s, s->submit(request(1, 3)));
  ASSERT_EQ(again.state(), v1::JOB_STATE_DONE) << again.error();
  EXPECT_TRUE(verifies(again, 3));
}

TEST_F(Service, AKeyReplacedByRenameIsLoadedAgainNotServedStale) {
  auto s = start();
  ASSERT_EQ(finish(*s, s->submit(request(1, 1))).state(), v1::JOB_STATE_DONE);
  write_key(key_, 6);  // written beside it and renamed over it: another inode
  const auto r = finish(*s, s->submit(request(1, 2)));
  ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  EXPECT_TRUE(verifies(r, 2)) << "proved with the replaced key";
  EXPECT_GT(r.timings().parameter_load(), 0.0);
}

// The CPU backend, after truncating the key file once: the proof reads its points
// through a mapping whose file has shrunk.
class TruncatesTheKeyFirst final : public CpuProverWith {
 public:
  explicit TruncatesTheKeyFirst(fs::path key) : key_(std::move(key)) {}

 private:
  void before_start(const groth16::PartitionWitness&, const groth16::ProvingKey&) override {
    std::call_once(once_, [&] { fs::resize_file(key_, 4096); });
  }

  fs::path key_;
  std::once_flag once_;
};

TEST_F(Service, AKeyTruncatedWhileAJobReadsItFailsThatJobNotTheDaemon) {
  io::install_mapping_fault_handler();  // as `zkpipe serve` does at start
  BackendSetup backend;
  backend.backends = {std::make_shared<TruncatesTheKeyFirst>(key_)};
  auto s = std::make_unique<ProvingService>(config_, std::move(backend));
  const auto failed = finish(*s, s->submit(request(1, 1)));
  ASSERT_EQ(failed.state(), v1::JOB_STATE_FAILED);
  EXPECT_NE(failed.error().find("parameter file " + key_.string() + " was truncated while this job read it"),
            std::string::npos)
      << failed.error();
  EXPECT_TRUE(failed.proof().empty());
  write_key(key_, 5);
  const auto again = finish(*s, s->submit(request(1, 2)));
  ASSERT_EQ(again.state(), v1::JOB_STATE_DONE) << again.error();
  EXPECT_TRUE(verifies(again, 2));
}

TEST_F(Service, AKeyLinkSwappedOutsideTheRootBeforeTheJobStartsIsNotFollowed) {
  const fs::path link = key_.parent_path() / "link.zkp";
  fs::create_symlink(key_.filename(), link);
  const fs::path outside = dir_.path() / "outside.zkp";
  write_key(outside, 6);
  auto linked = request(1, 4);
  linked.mutable_porep()->set_parameter_file(link.string());
  std::uint64_t id = 0;
  {
    auto s = start();
    s->pause();
    id = s->submit(linked);
  }  // stopped before proving: the job starts again at the next start
  fs::remove(link);
  fs::create_symlink(outside, link);
  auto s = start();
  const auto r = finish(*s, id);
  ASSERT_EQ(r.state(), v1::JOB_STATE_FAILED);
  EXPECT_NE(r.error().find("outside the allowed roots"), std::string::npos) << r.error();
}

// Two engine devices: a CPU backend that waits until the other device has failed,
// and one whose device fails at its first start() (DeviceFailure, as the CUDA
// backend's on a CUDA error). The job completes on the first, and status and
// /metrics report each device: the failed one isolated, with its reason.
struct DeviceLoss {
  std::promise<void> happened;
  std::shared_future<void> seen = happened.get_future().share();
  std::once_flag once;
};

class LosesItsDevice final : public groth16::ProverBackend {
 public:
  explicit LosesItsDevice(std::shared_ptr<DeviceLoss> loss) : loss_(std::move(loss)) {}
  std::string name() const override { return "lost"; }
  std::unique_ptr<groth16::PendingProof> start(groth16::PartitionWitness, const groth16::ProvingKey&,
                                               const groth16::Blinding&) override {
    std::call_once(loss_->once, [&] { loss_->happened.set_value(); });
    throw groth16::DeviceFailure("lost the device");
  }
  groth16::Proof finish(std::unique_ptr<groth16::PendingProof>) override {
    throw std::logic_error("finish on a device that never started a proof");
  }
  void abort(std::unique_ptr<groth16::PendingProof>) override {}

 private:
  std::shared_ptr<DeviceLoss> loss_;
};

class ProvesAfterTheLoss final : public CpuProverWith {
 public:
  explicit ProvesAfterTheLoss(std::shared_ptr<DeviceLoss> loss) : loss_(std::move(loss)) {}

 private:
  void before_start(const groth16::PartitionWitness&, const groth16::ProvingKey&) override { loss_->seen.wait(); }

  std::shared_ptr<DeviceLoss> loss_;
};

TEST_F(Service, AFailedDeviceIsIsolatedAndReportedWhileTheJobCompletesOnAnother) {
  auto loss = std::make_shared<DeviceLoss>();
  BackendSetup backend;
  backend.backends = {std::make_shared<ProvesAfterTheLoss>(loss), std::make_shared<LosesItsDevice>(loss)};
  auto s = std::make_unique<ProvingService>(config_, std::move(backend));
  const auto r = finish(*s, s->submit(request(3, 7)));
  ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  EXPECT_TRUE(verifies(r, 7));
  const v1::GetStatusResponse status = s->status();
  ASSERT_EQ(status.devices_size(), 2);
  EXPECT_TRUE(status.devices(0).healthy());
  EXPECT_EQ(status.devices(0).partitions_proved(), 3u);
  EXPECT_FALSE(status.devices(0).has_ordinal()) << "a CPU backend drives no GPU";
  EXPECT_FALSE(status.devices(1).healthy());
  EXPECT_NE(status.devices(1).failure().find("lost the device"), std::string::npos) << status.devices(1).failure();
  EXPECT_EQ(status.devices(1).partitions_proved(), 0u);
  EXPECT_EQ(status.devices(1).partitions_reassigned(), 1u);
  const std::string metrics = s->metrics();
  EXPECT_NE(metrics.find("zkpipe_device_healthy{device=\"0\",backend=\"cpu\"} 1"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("zkpipe_device_healthy{device=\"1\",backend=\"lost\"} 0"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("zkpipe_device_partitions_proved_total{device=\"0\",backend=\"cpu\"} 3"),
            std::string::npos)
      << metrics;
  EXPECT_NE(metrics.find("zkpipe_device_partitions_reassigned_total{device=\"1\",backend=\"lost\"} 1"),
            std::string::npos)
      << metrics;
}

// A CPU prover that says it drives GPU 0: the ordinal a GPU backend reports.
class OnGpuZero final : public CpuProverWith {
 public:
  std::string name() const override { return "on-gpu-0"; }
  std::optional<int> device_ordinal() const override { return 0; }
};

// Device.ordinal is a one-field oneof (older protoc rejects proto3 `optional`): GPU 0
// must still be told apart from no GPU, in the message and on the wire.
TEST_F(Service, GpuOrdinalZeroIsSetAndSurvivesTheWire) {
  BackendSetup backend;
  backend.backends = {std::make_shared<OnGpuZero>()};
  auto s = std::make_unique<ProvingService>(config_, std::move(backend));
  v1::GetStatusResponse status;
  ASSERT_TRUE(status.ParseFromString(s->status().SerializeAsString()));
  ASSERT_EQ(status.devices_size(), 1);
  EXPECT_TRUE(status.devices(0).has_ordinal());
  EXPECT_EQ(status.devices(0).ordinal(), 0);
}

// A device backend's placement (what CudaProver reports: keys resident or streamed,
// the evaluator, the bytes streamed) reaches GetStatus and /metrics per GPU.
class PlacesKeysOnGpuZero final : public CpuProverWith {
 public:
  std::string name() const override { return "placing"; }
  std::optional<int> device_ordinal() const override { return 0; }
  std::optional<Placement> placement() const override {
    return Placement{.keys_resident = 1, .keys_streamed = 2, .evaluator_streamed = true, .streamed_bytes = 12345};
  }
  std::optional<std::size_t> device_memory_total() const override { return 80000; }
  std::optional<std::size_t> device_memory_used() const override { return 30000; }
};

TEST_F(Service, ADevicesPlacementIsInStatusAndMetrics) {
  BackendSetup backend;
  backend.backends = {std::make_shared<PlacesKeysOnGpuZero>(), std::make_shared<OnGpuZero>()};
  auto s = std::make_unique<ProvingService>(config_, std::move(backend));
  const v1::GetStatusResponse status = s->status();
  ASSERT_EQ(status.devices_size(), 2);
  EXPECT_EQ(status.devices(0).keys_resident(), 1u);
  EXPECT_EQ(status.devices(0).keys_streamed(), 2u);
  EXPECT_TRUE(status.devices(0).evaluator_streamed());
  EXPECT_EQ(status.devices(0).streamed_bytes(), 12345u);
  EXPECT_EQ(status.devices(0).driver_total_bytes(), 80000u);
  EXPECT_EQ(status.devices(0).driver_used_bytes(), 30000u);
  // cuzk's GetStatus: VRAM from the driver.
  const cuzk::v1::GetStatusResponse cuzk_status = api::CuzkService(*s, config_, "").status();
  ASSERT_EQ(cuzk_status.gpus_size(), 2);
  EXPECT_EQ(cuzk_status.gpus(0).vram_total_bytes(), 80000u);
  EXPECT_EQ(cuzk_status.gpus(0).vram_free_bytes(), 50000u);
  EXPECT_EQ(status.devices(1).keys_resident() + status.devices(1).keys_streamed(), 0u) << "no placement reported";
  const std::string metrics = s->metrics();
  for (const char* line : {"zkpipe_device_keys{device=\"0\",backend=\"placing\",placement=\"resident\"} 1",
                           "zkpipe_device_keys{device=\"0\",backend=\"placing\",placement=\"streamed\"} 2",
                           "zkpipe_device_streamed_bytes_total{device=\"0\",backend=\"placing\"} 12345",
                           "zkpipe_device_streamed_bytes_total{device=\"1\",backend=\"on-gpu-0\"} 0"}) {
    EXPECT_NE(metrics.find(line), std::string::npos) << line << "\n" << metrics;
  }
}

TEST(ServiceConfig, TomlFileFlagsAndRefusals) {
  TempDir dir;
  const fs::path file = dir.path() / "zkpipe.toml";
  std::ofstream(file) << "listen = \"unix:/run/zkpipe.sock\"\nbudget = \"8GiB\"\nsynthesis_workers = 3\n"
                         "parameter_roots = [\"/srv/params\"]\ndrain_seconds = 5\n";
  const config::ServiceConfig c = config::load_config(file);
  EXPECT_EQ(c.listen, "unix:/run/zkpipe.sock");
  EXPECT_EQ(c.budget_bytes, std::size_t{8} << 30);
  EXPECT_EQ(c.synthesis_workers, 3u);
  ASSERT_EQ(c.parameter_roots.size(), 1u);
  EXPECT_EQ(c.drain_seconds, 5.0);
  c.validate();

  auto refused = [&](const std::string& text, const std::string& expect) {
    std::ofstream(file) << text;
    try {
      config::load_config(file).validate();
    } catch (const config::ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(expect), std::string::npos) << e.what();
      return;
    }
    ADD_FAILURE() << "accepted: " << text;
  };
  refused("lisen = \"x\"\n", "lisen: unknown key");
  // A key given twice is refused (TOML forbids it; toml++ says so), as in every JSON input.
  refused("budget = \"1GiB\"\nbudget = \"2GiB\"\n", "zkpipe.toml:2:");
  refused("budget = \"lots\"\n", "budget: expected a byte size");
  refused("synthesis_workers = -1\n", "must not be negative");
  refused("listen = \"0.0.0.0:50051\"\n", "not a loopback address");
  refused("listen = \"localhost:99999\"\n", "bad port");
  refused("listen = [\n", "zkpipe.toml:");
  refused("queue = \"mysql://db/zkpipe\"\n", "queue must be a postgresql://");
  refused("lease_seconds = 2\nheartbeat_seconds = 2\n", "must be below lease_seconds");
  refused("poll_seconds = 0\n", "must be in (0, 86400]");
  refused("max_waits_per_peer = 0\n", "max_waits_per_peer must be between 1 and 1000000");
  refused("devices = []\n", "devices: an empty list");
  refused("devices = [0, -1]\n", "devices: expected device ordinals");
  refused("devices = \"0,1\"\n", "devices: expected an array");
  refused("devices = [0, 1.5]\n", "devices: expected device ordinals");
  refused("device = 1\ndevices = [0]\n", "set device or devices, not both");
  refused("backend = \"gpu\"\n", "backend must be auto, cpu or cuda, not 'gpu'");
  refused("backend = \"\"\n", "backend must be auto, cpu or cuda");
  refused("backend = 1\n", "backend: expected a string");
  refused("device = 4294967296\n", "device: at most 2147483647");
  refused("cuzk_params = [\"a\"]\n", "cuzk_params: expected a table");
  refused("device_memory = \"1MiB\"\n", "device_memory: '1MiB' is less than the least zkpipe works in, 256 MiB");
  refused("device_memory = \"a lot\"\n", "device_memory: 'a lot' is not a size");
  refused("device_memory = true\n", "device_memory: expected a byte size");
  refused("device_memory = \"0=16GiB,0=8GiB\"\n", "device_memory: device 0 is given two sizes");
  refused("pinned_copy = \"no\"\n", "pinned_copy: expected true or false");
  refused("[cuzk_params]\n\"porep-32g\" = 5\n", "cuzk_params.porep-32g: expected a .params file name");
  std::ofstream(file) << "[cuzk_params]\n\"porep-32g\" = \"/srv/p32.params\"\n";
  EXPECT_EQ(config::load_config(file).cuzk_params.at("porep-32g"), fs::path("/srv/p32.params"));
  std::ofstream(file) << "listen = \"0.0.0.0:50051\"\nallow_remote = true\n";
  EXPECT_NO_THROW(config::load_config(file).validate());
  // Several engine devices, a GPU listed twice being two of them; without the key, the one `device` names.
  std::ofstream(file) << "backend = \"cuda\"\ndevices = [0, 1, 1]\nworkers_per_device = 2\n";
  const config::ServiceConfig several = config::load_config(file);
  EXPECT_NO_THROW(several.validate());
  EXPECT_EQ(several.engine_devices(), (std::vector<int>{0, 1, 1}));
  std::ofstream(file) << "device = 3\ndevice_memory = \"16GiB\"\n";
  EXPECT_EQ(config::load_config(file).device, std::optional<int>{3});
  EXPECT_EQ(config::load_config(file).device_memory.of(3), std::size_t{16} << 30);
  EXPECT_EQ(config::load_config(file).engine_devices(), std::vector<int>{3});
  std::ofstream(file) << "devices = [0, 1]\ndevice_memory = \"1=24GiB\"\n";
  EXPECT_EQ(config::load_config(file).device_memory.of(0), std::nullopt);
  EXPECT_EQ(config::load_config(file).device_memory.of(1), std::size_t{24} << 30);
  EXPECT_TRUE(config::load_config(file).pinned_copy);
  std::ofstream(file) << "pinned_copy = false\n";
  EXPECT_FALSE(config::load_config(file).pinned_copy);
  std::ofstream(file) << "device_memory = 17179869184\n";
  EXPECT_EQ(config::load_config(file).device_memory.of(0), std::size_t{16} << 30);
  // auto (the default) and the explicit backends parse; without device or devices
  // nothing names a GPU, and the one engine device is 0.
  for (const std::string backend : {"auto", "cpu", "cuda"}) {
    std::ofstream(file) << "backend = \"" << backend << "\"\n";
    const config::ServiceConfig chosen = config::load_config(file);
    EXPECT_NO_THROW(chosen.validate());
    EXPECT_EQ(chosen.backend, backend);
    EXPECT_FALSE(chosen.device.has_value());
    EXPECT_EQ(chosen.engine_devices(), std::vector<int>{0});
  }
  EXPECT_EQ(config::ServiceConfig{}.backend, "auto");
  // Curio's defaults: a [cuzk] section (or zkpipe serve --cuzk) listens where Curio
  // looks and takes a 32 GiB C1 output; keys given explicitly still win.
  std::ofstream(file) << "[cuzk]\n";
  const config::ServiceConfig cuzk = config::load_config(file);
  EXPECT_TRUE(cuzk.cuzk_defaults);
  EXPECT_EQ(cuzk.listen, "unix:///run/curio/cuzk.sock");
  EXPECT_EQ(cuzk.max_request_bytes, std::size_t{256} << 20);
  EXPECT_NO_THROW(cuzk.validate());
  EXPECT_EQ(config::parse_listen_address(cuzk.listen).path, "/run/curio/cuzk.sock");
  std::ofstream(file) << "listen = \"unix:/tmp/c.sock\"\nmax_request_bytes = \"64MiB\"\n";
  EXPECT_EQ(config::load_config(file, true).listen, "unix:/tmp/c.sock");
  EXPECT_EQ(config::load_config(file, true).max_request_bytes, std::size_t{64} << 20);
  EXPECT_TRUE(config::load_config(file, true).cuzk_defaults);
  EXPECT_FALSE(config::load_config(file).cuzk_defaults);
  refused("[cuzk]\nlisten = \"x\"\n", "cuzk.listen: unknown key");
  refused("cuzk = true\n", "cuzk: expected a table");
  refused("listen = \"unix://relative.sock\"\n", "unix:// takes an absolute path");
  // The documented example is every default, and parses.
  const config::ServiceConfig example =
      config::load_config(fs::path(ZKPIPE_SOURCE_DIR) / "docs/deploy/zkpipe.example.toml");
  const config::ServiceConfig defaults;
  EXPECT_EQ(example.listen, defaults.listen);
  EXPECT_EQ(example.max_request_bytes, defaults.max_request_bytes);
  EXPECT_EQ(example.param_idle_seconds, defaults.param_idle_seconds);
  EXPECT_EQ(example.keep_results_seconds, defaults.keep_results_seconds);
  EXPECT_EQ(example.data_dir, defaults.data_dir);
  EXPECT_EQ(example.queue, defaults.queue);
  EXPECT_EQ(example.lease_seconds, defaults.lease_seconds);
  EXPECT_EQ(example.engine_devices(), defaults.engine_devices());
  EXPECT_EQ(example.backend, defaults.backend);
  EXPECT_EQ(example.device, defaults.device);
  EXPECT_EQ(example.heartbeat_seconds, defaults.heartbeat_seconds);
  EXPECT_EQ(example.max_waits_per_peer, defaults.max_waits_per_peer);
  EXPECT_EQ(example.cuzk_params, defaults.cuzk_params);
  EXPECT_TRUE(config::parse_listen_address("[::1]:1").loopback());
  EXPECT_TRUE(config::parse_listen_address("127.0.0.2:1").loopback());
  EXPECT_FALSE(config::parse_listen_address("10.0.0.1:1").loopback());
}

}  // namespace
}  // namespace zkpipe::service
