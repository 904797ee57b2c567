// Filecoin PoRep jobs in the proving service: refused at submit for what their C1
// output, sector values or .params get wrong (the field named, nothing queued, the
// daemon going on), accepted with the documents journaled whole and read back when
// the job starts, also after a restart, and preloaded under the seal proof's name.
// A 2 KiB seal proved end to end, its proof bellperson's bytes verified against the
// sector's values, needs its key's setup (2.4 M constraints: minutes on two cores),
// so that test runs only when ZKPIPE_TEST_FILECOIN_PROVE is set.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/bellperson_proof.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "proving/filecoin_porep.hpp"
#include "service/errors.hpp"
#include "service/jobs/filecoin_porep_job.hpp"
#include "service/proving_service.hpp"
#include "service/queue/local/job_store.hpp"
#include "filecoin_job_util.hpp"
#include "io/temp_dir.hpp"
#include "job_calls.hpp"

namespace zkpipe::service {
namespace {

namespace fs = std::filesystem;
using io::testing::TempDir;
using testing::finish;
using testing::mentions;
using testing::refusal;
using namespace std::chrono_literals;
using testing::filecoin_request;
using testing::k2KiBIcPoints;
using testing::sealed_2kib;
using testing::write_params_head;
using testing::write_params_without_queries;

class FilecoinService : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.path() / "params");
    // As the daemon names files in its messages.
    root_ = fs::canonical(dir_.path() / "params");
    no_queries_ = root_ / "no-queries.params";
    write_params_without_queries(no_queries_, k2KiBIcPoints);
    config_.data_dir = dir_.path() / "data";
    fs::create_directories(config_.data_dir);
    config_.parameter_roots = {root_};
    config_.synthesis_workers = 1;
  }

  std::unique_ptr<ProvingService> start() const {
    BackendSetup backend;
    backend.backends = {std::make_shared<groth16::CpuProver>()};
    return std::make_unique<ProvingService>(config_, std::move(backend));
  }

  v1::SubmitProofRequest request(const fs::path& params) const { return filecoin_request(sealed_2kib(), params); }

  // The error a submit is refused with.
  static std::uint64_t queued_jobs(const ProvingService& s) {
    std::uint64_t n = 0;
    const v1::GetStatusResponse status = s.status();
    for (const auto& row : status.queue()) n += row.jobs();
    return n;
  }

  TempDir dir_;
  fs::path root_;
  fs::path no_queries_;
  config::ServiceConfig config_;
};

TEST_F(FilecoinService, BadDocumentsAreRefusedNamingTheFieldAndNothingIsQueued) {
  auto s = start();
  const std::string& c1 = sealed_2kib().c1_json;

  v1::SubmitProofRequest r = request(no_queries_);
  r.mutable_filecoin_porep()->set_c1_json(c1.substr(0, c1.size() / 2));
  ServiceError e = refusal(*s, r);
  EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  EXPECT_TRUE(mentions(e.what(), "filecoin_porep.c1_json")) << e.what();

  // Well-formed, but another sector's: its commitments are not this sector's.
  r = request(no_queries_);
  r.mutable_filecoin_porep()->set_c1_json(testing::seal_2kib(7).c1_json);
  e = refusal(*s, r);
  EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  EXPECT_TRUE(mentions(e.what(), "filecoin_porep.c1_json")) << e.what();

  r = request(no_queries_);
  const std::string& sector = sealed_2kib().sector_json;
  const std::size_t proof_at = sector.find("2KiB");
  ASSERT_NE(proof_at, std::string::npos);
  r.mutable_filecoin_porep()->set_sector_json(sector.substr(0, proof_at) + "3KiB" + sector.substr(proof_at + 4));
  e = refusal(*s, r);
  EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  EXPECT_TRUE(mentions(e.what(), "filecoin_porep.sector_json")) << e.what();

  r = request(no_queries_);
  r.mutable_filecoin_porep()->clear_c1_json();
  e = refusal(*s, r);
  EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  EXPECT_TRUE(mentions(e.what(), "filecoin_porep.c1_json")) << e.what();
  r = request(no_queries_);
  r.mutable_filecoin_porep()->clear_sector_json();
  EXPECT_TRUE(mentions(refusal(*s, r).what(), "filecoin_porep.sector_json"));

  EXPECT_EQ(queued_jobs(*s), 0u);
  // The daemon goes on: a good job is accepted.
  EXPECT_GT(s->submit(request(no_queries_)), 0u);
}

TEST_F(FilecoinService, ParameterFilesAreConfinedFoundAndOfTheSealProof) {
  auto s = start();
  ServiceError e = refusal(*s, request(root_ / "v28-missing.params"));
  EXPECT_EQ(e.kind(), ErrorKind::not_found);
  EXPECT_TRUE(mentions(e.what(), "filecoin_porep.parameter_file")) << e.what();

  const fs::path outside = dir_.path() / "outside.params";
  write_params_without_queries(outside, k2KiBIcPoints);
  EXPECT_EQ(refusal(*s, request(outside)).kind(), ErrorKind::permission_denied);
  EXPECT_EQ(refusal(*s, request(root_ / ".." / "outside.params")).kind(), ErrorKind::permission_denied);
  EXPECT_EQ(refusal(*s, request("no-queries.params")).kind(), ErrorKind::invalid_argument);
  EXPECT_EQ(refusal(*s, request("")).kind(), ErrorKind::invalid_argument);

  // A key of another circuit: its IC count says so before any point is read.
  const fs::path other = root_ / "other.params";
  write_params_without_queries(other, k2KiBIcPoints + 18);
  e = refusal(*s, request(other));
  EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  EXPECT_TRUE(mentions(e.what(), "filecoin_porep.parameter_file")) << e.what();
  EXPECT_TRUE(mentions(e.what(), "IC points")) << e.what();

  // A download cut short: the counts do not match the size.
  const fs::path truncated = root_ / "truncated.params";
  write_params_head(truncated, k2KiBIcPoints);
  e = refusal(*s, request(truncated));
  EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  EXPECT_TRUE(mentions(e.what(), truncated.string())) << e.what();

  const fs::path garbage = root_ / "garbage.params";
  std::ofstream(garbage) << "not a parameter file";
  e = refusal(*s, request(garbage));
  EXPECT_EQ(e.kind(), ErrorKind::invalid_argument);
  EXPECT_TRUE(mentions(e.what(), garbage.string())) << e.what();

  EXPECT_EQ(queued_jobs(*s), 0u);
}

// A front end that has read the C1 output (cuzk's) hands the circuit to submit: the
// request's c1_json is then neither parsed at submit nor when the job starts — here
// it is not even JSON, and the job still gets as far as the key. Without the circuit
// the same request is refused, naming c1_json.
TEST_F(FilecoinService, ACircuitReadByTheFrontEndIsProvedWithoutParsingTheC1OutputAgain) {
  auto s = start();
  v1::SubmitProofRequest r = request(no_queries_);
  r.mutable_filecoin_porep()->set_c1_json("not a C1 output");
  EXPECT_TRUE(mentions(refusal(*s, r).what(), "filecoin_porep.c1_json"));

  const auto read = proving::filecoin_porep_instance(sealed_2kib().c1_json, "c1.json", sealed_2kib().sector_json,
                                                     "sector.json")
                        .circuit;
  const v1::AwaitProofResponse answer = finish(*s, s->submit(r, read));
  ASSERT_EQ(answer.state(), v1::JOB_STATE_FAILED);
  EXPECT_FALSE(mentions(answer.error(), "c1_json")) << answer.error();
  EXPECT_TRUE(mentions(answer.error(), no_queries_.string())) << answer.error();
}

TEST_F(FilecoinService, TheC1OutputIsJournaledWholeAndReadBackWhenTheJobStarts) {
  // As a daemon that stopped before starting it left it: queued in the journal.
  std::uint64_t id = 0;
  {
    queue::local::JobStore store(config_.data_dir / "jobs.sqlite");
    std::string bytes;
    request(no_queries_).SerializeToString(&bytes);
    id = store.insert(v1::PRIORITY_NORMAL, bytes, 0);
  }
  auto s = start();
  const v1::AwaitProofResponse r = finish(*s, id);
  // The documents were read back and checked (a C1 output lost on the way would be
  // refused, naming c1_json); the job got as far as the key, which fits no circuit.
  ASSERT_EQ(r.state(), v1::JOB_STATE_FAILED);
  EXPECT_FALSE(mentions(r.error(), "c1_json")) << r.error();
  EXPECT_TRUE(mentions(r.error(), no_queries_.string())) << r.error();
  EXPECT_EQ(r.partitions(), 1u);

  // A submitted job's request is journaled with its C1 output.
  const std::uint64_t second = s->submit(request(no_queries_));
  EXPECT_EQ(finish(*s, second).state(), v1::JOB_STATE_FAILED);
  s.reset();
  queue::local::JobStore store(config_.data_dir / "jobs.sqlite");
  const auto record = store.get(second);
  ASSERT_TRUE(record.has_value());
  v1::SubmitProofRequest journaled;
  ASSERT_TRUE(journaled.ParseFromString(record->request));
  EXPECT_EQ(journaled.filecoin_porep().c1_json(), sealed_2kib().c1_json);
  EXPECT_EQ(journaled.filecoin_porep().sector_json(), sealed_2kib().sector_json);
}

TEST_F(FilecoinService, PreloadNamesTheSealProof) {
  auto s = start();
  v1::PreloadParamsRequest preload;
  preload.set_parameter_file(no_queries_.string());
  preload.set_circuit(jobs::kFilecoinPorepCircuit);
  auto refused = [&] {
    try {
      s->preload(preload);
    } catch (const ServiceError& e) {
      return std::make_pair(e.kind(), std::string(e.what()));
    }
    return std::make_pair(ErrorKind::unavailable, std::string("(preloaded)"));
  };
  EXPECT_EQ(refused().first, ErrorKind::invalid_argument);  // no preset: which seal proof?
  preload.set_preset("StackedDrg3KiBV1_1");
  EXPECT_EQ(refused().first, ErrorKind::invalid_argument);
  // A known seal proof, a file without queries: the load's error names the file.
  preload.set_preset("StackedDrg2KiBV1_1");
  const auto [kind, what] = refused();
  EXPECT_EQ(kind, ErrorKind::invalid_argument);
  EXPECT_TRUE(mentions(what, no_queries_.string())) << what;
}

// The whole path: a 2 KiB seal's key set up and written as bellperson's .params,
// preloaded, a job submitted and proved, its proof (bellperson's bytes) verified as
// verify_seal would, from the sector's values; a second job finds the key resident,
// and a job accepted before a restart is proved after it.
TEST_F(FilecoinService, ProvesA2KiBSealAsBellpersonProofBytes) {
  const char* enabled = std::getenv("ZKPIPE_TEST_FILECOIN_PROVE");
  if (enabled == nullptr || *enabled == '\0') {
    GTEST_SKIP() << "set ZKPIPE_TEST_FILECOIN_PROVE=1: the 2 KiB key's setup takes minutes";
  }
  const testing::FilecoinDocuments& documents = sealed_2kib();
  const filecoin::core::SealProof& proof = *documents.sector.registered_proof;
  const fs::path params = root_ / "v28-stacked-2kib.params";
  {
    const groth16::ProvingKey key = groth16::setup(
        groth16::record_matrices(filecoin::api::stacked_circuit_shape(proof)), groth16::ToxicWaste::from_seed(9));
    formats::write_bellperson_params(params, key);
  }
  const groth16::PreparedVerifyingKey pvk(proving::read_filecoin_porep_key(params, proof).vk);
  const auto inputs = proving::filecoin_porep_public_inputs(documents.sector);
  auto verifies = [&](const v1::AwaitProofResponse& r) {
    const auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(r.proof().data()), r.proof().size());
    const auto proofs = formats::decode_bellperson_proofs(bytes, "proof", proof.partitions());
    for (std::size_t p = 0; p < proofs.size(); ++p) {
      if (!groth16::verify(pvk, proofs[p], inputs[p])) return false;
    }
    return true;
  };

  std::uint64_t before_restart = 0;
  {
    auto s = start();
    v1::PreloadParamsRequest preload;
    preload.set_parameter_file(params.string());
    preload.set_circuit(jobs::kFilecoinPorepCircuit);
    preload.set_preset(std::string(proof.name));
    EXPECT_GT(s->preload(preload).load_seconds(), 0.0);

    const v1::AwaitProofResponse r = finish(*s, s->submit(request(params)));
    ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
    EXPECT_EQ(r.partitions(), proof.partitions());
    EXPECT_EQ(r.proof().size(), proof.partitions() * 192);
    EXPECT_EQ(r.timings().parameter_load(), 0.0);  // resident since the preload
    EXPECT_TRUE(verifies(r));
    ASSERT_EQ(s->status().parameters_size(), 1);

    s->pause();
    before_restart = s->submit(request(params));
  }
  auto s = start();
  const v1::AwaitProofResponse r = finish(*s, before_restart);
  ASSERT_EQ(r.state(), v1::JOB_STATE_DONE) << r.error();
  EXPECT_TRUE(verifies(r));
}

}  // namespace
}  // namespace zkpipe::service
