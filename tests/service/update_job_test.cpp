// Filecoin SnapDeals updates (ProveReplicaUpdate2) in the proving service, from the
// vanilla partition proofs filecoin-proofs writes (a synthetic 2 KiB sector here: one
// partition of the SHA-256 circuit, about 1.25 M constraints): proved and verified,
// refused at submit for what they get wrong (the field named, nothing queued), and
// through cuzk's API as Curio sends them. The key takes the most time (about a minute
// on two cores): it is set up once a process, by the first test that proves.
#include <gtest/gtest.h>
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>

#include "circuits/filecoin/api/update_vanilla.hpp"
#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/synthetic/synthetic_update.hpp"
#include "circuits/filecoin/update/update_circuit.hpp"
#include "cuzk/v1/proving.grpc.pb.h"
#include "groth16/cpu_prover.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/proof.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "service/api/cuzk_request.hpp"
#include "service/api/grpc_server.hpp"
#include "service/errors.hpp"
#include "service/jobs/filecoin_update_job.hpp"
#include "service/proving_service.hpp"
#include "io/temp_dir.hpp"
#include "filecoin_job_util.hpp"
#include "job_calls.hpp"

namespace zkpipe::service {
namespace {

namespace fs = std::filesystem;
using io::testing::TempDir;
using testing::finish;
using testing::mentions;
using testing::refusal;
using testing::update_2kib;
using testing::UpdateInput;
using namespace std::chrono_literals;

constexpr std::uint64_t kSectorBytes = 2048;

// The request Curio sends for the update (its ABI number 0: StackedDrg2KiBV1).
cuzk::v1::SubmitProofRequest cuzk_request(const UpdateInput& input) {
  cuzk::v1::SubmitProofRequest r;
  r.set_proof_kind(cuzk::v1::SNAP_DEALS_UPDATE);
  r.set_registered_proof(0);
  r.set_sector_size(kSectorBytes);
  r.set_comm_r_old(input.job.comm_r_old());
  r.set_comm_r_new(input.job.comm_r_new());
  r.set_comm_d_new(input.job.comm_d_new());
  *r.mutable_vanilla_proofs() = input.job.vanilla_proofs();
  r.set_sector_number(9);
  r.set_miner_id(1000);
  return r;
}

class UpdateService : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { keys_ = std::make_unique<TempDir>(); }
  static void TearDownTestSuite() { keys_.reset(); }

  // The key as `zkpipe setup --circuit filecoin-snapdeals --sector-size 2KiB` sets it
  // up, from a blank partition of the shape; only tests that prove need the file (a
  // refused request is refused before its key is opened).
  static void set_up_key() {
    static std::once_flag once;
    std::call_once(once, [] {
      testing::write_update_key_2kib(keys_->path() / "snap-2k.zkp", 9);
    });
  }

  void SetUp() override {
    root_ = fs::canonical(keys_->path());
    config_.data_dir = dir_.path() / "data";
    fs::create_directories(config_.data_dir);
    config_.parameter_roots = {root_};
    config_.synthesis_workers = 1;
    config_.max_request_bytes = 8 << 20;
  }

  fs::path update_key() const { return root_ / "snap-2k.zkp"; }

  std::unique_ptr<ProvingService> start() const {
    BackendSetup backend;
    backend.backends = {std::make_shared<groth16::CpuProver>()};
    return std::make_unique<ProvingService>(config_, std::move(backend));
  }

  bool verifies(const std::string& proof, const filecoin::update::EmptySectorUpdateCircuit& circuit) const {
    return testing::proofs_verify(proof, update_key(), circuit);
  }

  static inline std::unique_ptr<TempDir> keys_;
  TempDir dir_;
  fs::path root_;
  config::ServiceConfig config_;
};

// Beside cuzk_api_test's CuzkRequest tests: the names and numbers a SnapDeals request uses.
TEST(CuzkRequest, UpdateProofsByNameAndNumberAndTheirCircuitIds) {
  const jobs::RegisteredUpdate by_number = jobs::registered_update_proof(std::uint64_t{3});
  EXPECT_EQ(by_number.name, "StackedDrg32GiBV1");
  EXPECT_EQ(by_number.sector_bytes, std::uint64_t{32} << 30);
  EXPECT_EQ(by_number.shape.partitions, 16u);
  EXPECT_EQ(by_number.circuit_name, "filecoin-snapdeals/32GiB");
  EXPECT_EQ(jobs::registered_update_proof("StackedDrg64GiBV1").shape.partitions, 16u);
  EXPECT_EQ(jobs::registered_update_proof(std::uint64_t{0}).name, "StackedDrg2KiBV1");
  EXPECT_EQ(jobs::registered_update_proof("StackedDrg2KiBV1").shape.partitions, 1u);
  EXPECT_EQ(jobs::registered_update_proof("StackedDrg8MiBV1").shape.partitions, 4u);
  EXPECT_THROW(jobs::registered_update_proof(std::uint64_t{5}), ServiceError);
  EXPECT_THROW(jobs::registered_update_proof("StackedDrg32GiBV1_1"), ServiceError);
  EXPECT_EQ(api::cuzk_update_circuit_id(std::uint64_t{32} << 30), "snap-32g");
  EXPECT_EQ(api::cuzk_update_circuit_id(std::uint64_t{64} << 30), "snap-64g");
  EXPECT_EQ(api::cuzk_update_circuit_id(kSectorBytes), "snap-2k");
  EXPECT_EQ(api::cuzk_update_circuit_id(std::uint64_t{512} << 20), "snap-512m");
}

// One update proved as a zkpipe.v1 job, another as Curio's ProveReplicaUpdate2 through
// cuzk's API (the RegisteredUpdateProof by its Go ABI number, the three commitments as
// 32 raw bytes, the partitions' vanilla proofs): one test, so that the key (52 s on two
// cores) is set up once.
TEST_F(UpdateService, AnUpdateIsProvedFromItsVanillaPartitionProofsDirectlyAndThroughCuzk) {
  set_up_key();
  config_.listen = "127.0.0.1:0";
  config_.cuzk_params = {{"snap-2k", update_key()}};
  auto s = start();
  const UpdateInput input = update_2kib(31, update_key());
  v1::SubmitProofRequest r;
  *r.mutable_filecoin_update() = input.job;
  const std::uint64_t id = s->submit(r);
  EXPECT_EQ(s->await(id, 0ms).partitions(), 1u);
  const v1::AwaitProofResponse done = finish(*s, id);
  ASSERT_EQ(done.state(), v1::JOB_STATE_DONE) << done.error();
  EXPECT_EQ(done.proof().size(), 192u);
  EXPECT_TRUE(verifies(done.proof(), input.circuit));
  EXPECT_EQ(done.partitions(), 1u);

  api::GrpcServer server(*s, config_, "");
  auto stub = cuzk::v1::ProvingEngine::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(server.port()), grpc::InsecureChannelCredentials()));
  const UpdateInput other = update_2kib(33, update_key());
  cuzk::v1::ProveRequest prove;
  *prove.mutable_submit() = cuzk_request(other);
  cuzk::v1::ProveResponse proved;
  {
    grpc::ClientContext ctx;
    const grpc::Status status = stub->Prove(&ctx, prove, &proved);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  ASSERT_EQ(proved.result().status(), cuzk::v1::AwaitProofResponse::COMPLETED) << proved.result().error_message();
  EXPECT_EQ(proved.result().proof().size(), 192u);
  EXPECT_TRUE(verifies(proved.result().proof(), other.circuit));
}

TEST_F(UpdateService, BadUpdatesAreRefusedNamingTheFieldAndNothingIsQueued) {
  auto s = start();
  const v1::FilecoinUpdateJob good = update_2kib(32, update_key()).job;
  auto expect_refused = [&](const v1::FilecoinUpdateJob& job, const std::string& what) {
    v1::SubmitProofRequest r;
    *r.mutable_filecoin_update() = job;
    testing::expect_invalid(*s, r, what);
  };
  v1::FilecoinUpdateJob job = good;
  job.set_comm_r_old(good.comm_r_old().substr(0, 31));
  expect_refused(job, "filecoin_update.comm_r_old: 31 bytes");
  job = good;
  job.set_comm_d_new(std::string(32, '\xff'));
  expect_refused(job, "filecoin_update.comm_d_new: not a canonical field element");
  // Another comm_r_new: not Poseidon(comm_c, tree_r_new's root), and it draws other challenges.
  job = good;
  std::string other = good.comm_r_new();
  other[0] = static_cast<char>(other[0] ^ 1);
  job.set_comm_r_new(other);
  expect_refused(job, "filecoin_update.vanilla_proofs[0]: comm_r_new");
  job = good;
  job.set_vanilla_proofs(0, good.vanilla_proofs(0).substr(0, 100));
  expect_refused(job, "filecoin_update.vanilla_proofs[0]: offset");
  job = good;
  job.add_vanilla_proofs(good.vanilla_proofs(0));  // a 2 KiB update has one partition
  expect_refused(job, "filecoin_update.vanilla_proofs: 2 proofs, but a StackedDrg2KiBV1 update has 1 partition (");
  job = good;
  job.set_registered_proof("StackedDrg8MiBV1");  // four partitions
  expect_refused(job, "has 4 partitions");
  job = good;
  job.set_registered_proof("StackedDrg3KiBV1");
  expect_refused(job, "filecoin_update.registered_proof");
  job = good;
  job.clear_vanilla_proofs();
  expect_refused(job, "filecoin_update.vanilla_proofs: none given");
  std::uint32_t queued = 0;
  const v1::GetStatusResponse status = s->status();
  for (const auto& depth : status.queue()) queued += depth.jobs();
  EXPECT_EQ(queued, 0u);
}

// Curio's requests refused as the service refuses its own, before any key is read.
TEST_F(UpdateService, CuzkSnapDealsRequestsAreRefusedLikeTheService) {
  config_.listen = "127.0.0.1:0";
  config_.cuzk_params = {{"snap-2k", update_key()}};
  auto s = start();
  api::GrpcServer server(*s, config_, "");
  auto stub = cuzk::v1::ProvingEngine::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(server.port()), grpc::InsecureChannelCredentials()));
  cuzk::v1::SubmitProofRequest r = cuzk_request(update_2kib(34, update_key()));
  auto refused = [&](const cuzk::v1::SubmitProofRequest& bad) {
    grpc::ClientContext ctx;
    cuzk::v1::SubmitProofResponse out;
    return stub->SubmitProof(&ctx, bad, &out);
  };
  cuzk::v1::SubmitProofRequest bad = r;
  bad.set_comm_r_old(r.comm_r_old().substr(0, 31));
  grpc::Status status = refused(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(status.error_message(), "comm_r_old must be exactly 32 bytes, got 31")) << status.error_message();
  bad = r;
  bad.set_comm_d_new(std::string(32, '\xff'));
  status = refused(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(status.error_message(), "comm_d_new")) << status.error_message();
  bad = r;
  bad.set_sector_size(std::uint64_t{32} << 30);
  status = refused(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(status.error_message(), "sector_size")) << status.error_message();
  bad = r;
  bad.set_sector_size(0);
  bad.set_registered_proof(3);  // 32 GiB: no parameters listed
  status = refused(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_TRUE(mentions(status.error_message(), "snap-32g")) << status.error_message();
  bad = r;
  bad.set_registered_proof(5);
  status = refused(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(status.error_message(), "registered_proof")) << status.error_message();
  bad = r;
  bad.clear_vanilla_proofs();
  status = refused(bad);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_TRUE(mentions(status.error_message(), "vanilla_proofs")) << status.error_message();
}

}  // namespace
}  // namespace zkpipe::service
