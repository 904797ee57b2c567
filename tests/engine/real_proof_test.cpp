#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <filesystem>

#include "engine/engine.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "circuits/porep_like/porep_circuit.hpp"

namespace zkpipe::engine {
namespace {

constexpr std::size_t kPartitions = 10;

// The tiny PoRep-like preset with ten partitions, its key made once for the suite.
class RealProofs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    circuit_ = new porep_like::PorepLikeCircuit(porep_like::find_preset("tiny"), 42, kPartitions);
    const r1cs::R1csMatrices m = groth16::record_matrices(*circuit_);
    shape_ = groth16::CircuitShape::of(m);
    key_ = std::make_shared<const groth16::ProvingKey>(groth16::setup(m, groth16::ToxicWaste::from_seed(5)));
  }
  static void TearDownTestSuite() {
    delete circuit_;
    key_.reset();
  }

  static porep_like::PorepLikeCircuit* circuit_;
  static groth16::CircuitShape shape_;
  static std::shared_ptr<const groth16::ProvingKey> key_;
};

porep_like::PorepLikeCircuit* RealProofs::circuit_ = nullptr;
groth16::CircuitShape RealProofs::shape_;
std::shared_ptr<const groth16::ProvingKey> RealProofs::key_;

TEST_F(RealProofs, TenPartitionsVerifyAssembledInOrderWithinTheBudget) {
  BufferLedger ledger;
  const groth16::PartitionFootprint footprint = groth16::PartitionFootprint::of(shape_);
  const std::size_t budget = parameter_bytes(*key_) + 3 * footprint.total();
  std::atomic<std::size_t> worst{0};
  ledger.add_observer([&](const memory::LedgerEvent& e) {
    std::size_t seen = worst.load();
    while (e.after.tracked > seen && !worst.compare_exchange_weak(seen, e.after.tracked)) {
    }
  });
  const groth16::PreparedVerifyingKey pvk(key_->vk);
  {
    Engine engine({.synthesis_workers = 2, .channel_capacity = 1, .budget_bytes = budget, .ledger = &ledger},
                  {std::make_shared<groth16::CpuProver>()});
    ProofRequest request;
    request.label = "tiny";
    request.parameters = engine.make_resident(key_);
    request.partitions = kPartitions;
    request.footprint = footprint;
    request.synthesize = [](std::size_t p) { return groth16::synthesize_witness(*circuit_, p); };
    request.verify = [&](std::span<const groth16::Proof> proofs) {
      for (std::size_t p = 0; p < proofs.size(); ++p) {
        if (!groth16::verify(pvk, proofs[p], circuit_->public_inputs(p))) return false;
      }
      return true;
    };
    ProofResult result = engine.submit(std::move(request)).get();
    EXPECT_TRUE(result.verified);
    ASSERT_EQ(result.proofs.size(), kPartitions);
    // In order: each partition's proof is for its own public inputs only.
    EXPECT_FALSE(groth16::verify(pvk, result.proofs[0], circuit_->public_inputs(1)));
    EXPECT_FALSE(groth16::verify(pvk, result.proofs[kPartitions - 1], circuit_->public_inputs(0)));
    engine.shutdown(ShutdownMode::drain);
  }
  EXPECT_LE(worst.load(), budget);
  EXPECT_GT(worst.load(), parameter_bytes(*key_) + footprint.total());
  const LedgerSnapshot s = ledger.snapshot();
  EXPECT_EQ(s.tracked, 0u);
  EXPECT_EQ(s.count, 0u);
}

TEST_F(RealProofs, AProofThatDoesNotVerifyFailsTheRequest) {
  BufferLedger ledger;
  {
    Engine engine({.synthesis_workers = 1, .ledger = &ledger}, {std::make_shared<groth16::CpuProver>()});
    ProofRequest request;
    request.parameters = engine.make_resident(key_);
    request.partitions = 2;
    request.footprint = groth16::PartitionFootprint::of(shape_);
    request.synthesize = [](std::size_t p) { return groth16::synthesize_witness(*circuit_, p); };
    request.verify = [](std::span<const groth16::Proof>) { return false; };
    EXPECT_THROW(engine.submit(std::move(request)).get(), RequestFailed);
  }
  EXPECT_EQ(ledger.snapshot().tracked, 0u);
}

// A key read from a parameter file is charged by its pages present in the process:
// little after a load that skips the checks (which would read every page), all of
// it once a proof has read every point; the reservation is the whole key throughout.
TEST_F(RealProofs, AMappedKeyIsChargedByThePagesTouched) {
  const auto file = std::filesystem::temp_directory_path() / ("zkpipe-mapped-key-" + std::to_string(::getpid()));
  groth16::write_parameter_file(file, *key_);
  auto mapped_key = std::make_shared<const groth16::ProvingKey>(
      groth16::load_parameter_file(file, {.verify_checksums = false, .check_points = false}));
  std::filesystem::remove(file);  // the mapping keeps the data
  const std::size_t owned = sizeof(groth16::G1Affine) * mapped_key->vk.ic.size();
  const std::size_t full = parameter_bytes(*mapped_key);
  std::size_t ranges = 0;
  for (const memory::AddressRange& r : file_mapped_ranges(*mapped_key)) ranges += r.bytes;
  ASSERT_EQ(ranges + owned, full) << "every query but the verifying key's ic views the file";
  ASSERT_GT(ranges, std::size_t{1} << 20) << "the test needs a key of many pages";

  BufferLedger ledger;
  Engine engine({.synthesis_workers = 1, .ledger = &ledger}, {std::make_shared<groth16::CpuProver>()});
  const auto parameters = engine.make_resident(mapped_key);
  EXPECT_EQ(parameters->reserved_bytes(), full);
  EXPECT_EQ(ledger.snapshot()[Stage::parameters].bytes, parameters->bytes());
  EXPECT_LT(parameters->bytes(), owned + ranges / 2) << "a fresh mapping is mostly untouched";

  ProofRequest request;
  request.parameters = parameters;
  request.partitions = 1;
  request.footprint = groth16::PartitionFootprint::of(shape_);
  request.synthesize = [](std::size_t p) { return groth16::synthesize_witness(*circuit_, p); };
  const groth16::PreparedVerifyingKey pvk(key_->vk);
  request.verify = [&](std::span<const groth16::Proof> proofs) {
    return groth16::verify(pvk, proofs[0], circuit_->public_inputs(0));
  };
  EXPECT_TRUE(engine.submit(std::move(request)).get().verified);
  engine.refresh_mapped_charges();
  EXPECT_EQ(parameters->bytes(), full) << "the MSMs read every point";
  EXPECT_EQ(ledger.snapshot()[Stage::parameters].bytes, full);
  engine.shutdown(ShutdownMode::drain);
}

}  // namespace
}  // namespace zkpipe::engine
