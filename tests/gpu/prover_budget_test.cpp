// CudaProver under a device-memory budget (the ledger's device limit, --device-memory):
// below what the key needs resident it streams, its proofs equal the CPU backend's,
// and the device memory it holds never passes the budget; below the least a
// partition needs it refuses at once, naming both figures.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "circuits/porep_like/porep_circuit.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/device_failure.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "gpu/cuda_prover.hpp"
#include "gpu/msm.hpp"
#include "gpu/placement.hpp"
#include "gpu_test_env.hpp"
#include "memory/buffer_ledger.hpp"
#include "r1cs/compiled_r1cs.hpp"

namespace zkpipe::gpu {
namespace {

using groth16::Blinding;
using groth16::ProvingKey;
using porep_like::PorepLikeCircuit;

class CudaProverBudget : public ::testing::Test {
 protected:
  void SetUp() override {
    ZKPIPE_REQUIRE_GPU();
    // 2^20: its points (~370 MiB) are more than the least a partition needs, so a
    // budget between the two must stream them.
    circuit_ = std::make_unique<PorepLikeCircuit>(porep_like::find_preset("2e20"), 2026, 1);
    key_ = std::make_unique<ProvingKey>(
        groth16::setup(groth16::record_matrices(*circuit_), groth16::ToxicWaste::from_seed(5)));
  }

  std::size_t point_bytes() const {
    return (key_->a.size() + key_->b_g1.size() + key_->l.size() + key_->h.size()) * sizeof(G1AffineWords) +
           key_->b_g2.size() * sizeof(G2AffineWords);
  }

  std::unique_ptr<PorepLikeCircuit> circuit_;
  std::unique_ptr<ProvingKey> key_;
};

// Streamed from a page-locked copy (the default), or staged from the key's own points.
class CudaProverBudgetStreaming : public CudaProverBudget, public ::testing::WithParamInterface<bool> {
 protected:
  bool pinned() const { return GetParam(); }
};

TEST_P(CudaProverBudgetStreaming, StreamsWithinABudgetTooSmallForTheResidentKey) {
  // The least a partition needs, and room for a quarter of the key's points.
  const std::size_t budget = CudaProver::least_device_bytes(*key_) + point_bytes() / 4;
  memory::BufferLedger ledger;
  ledger.set_device_limit(0, budget);
  CudaProver gpu(0, CudaProverOptions{.pin_streamed_sources = pinned(), .ledger = &ledger});
  groth16::CpuProver cpu;
  const groth16::PreparedVerifyingKey pvk(key_->vk);
  for (std::size_t p = 0; p < circuit_->partitions(); ++p) {
    const Blinding blinding = Blinding::random();
    const groth16::Proof expected = groth16::prove(cpu, groth16::synthesize_witness(*circuit_, p), *key_, blinding);
    const groth16::Proof proof = groth16::prove(gpu, groth16::synthesize_witness(*circuit_, p), *key_, blinding);
    EXPECT_EQ(proof, expected) << "partition " << p;
    EXPECT_TRUE(groth16::verify(pvk, proof, circuit_->public_inputs(p))) << "partition " << p;
  }
  EXPECT_EQ(gpu.base_placement(*key_), BasePlacement::kStreamed);
  const CudaProver::StreamedTotals sent = gpu.streamed_totals();
  EXPECT_EQ(sent.sums, 5 * circuit_->partitions());
  EXPECT_GT(sent.bytes, 0u);
  if (pinned()) {
    // The copy is the key's points in the device's layout, charged as page-locked
    // memory; every point of a query's terms crosses, zeros included.
    EXPECT_EQ(gpu.pinned_copy_bytes(), point_bytes());
    EXPECT_GE(ledger.snapshot().pinned, point_bytes());
    EXPECT_EQ(sent.zero_terms, 0u);
    EXPECT_LE(sent.bytes, circuit_->partitions() * point_bytes());
  } else {
    // A witness's zero terms were not sent, so less than every point (and its index)
    // went over the link.
    EXPECT_EQ(gpu.pinned_copy_bytes(), 0u);
    EXPECT_GT(sent.zero_terms, 0u);
    EXPECT_LT(sent.bytes, circuit_->partitions() * point_bytes() * 5 / 4);
  }
  EXPECT_LE(ledger.snapshot().device(0).peak_bytes, budget);
  EXPECT_GT(ledger.snapshot().device(0).peak_bytes, 0u);
}

// A budget that holds some of the key's queries beside a partition but not all: those
// stay resident (the most transfer saved per byte first), the others stream, the
// proofs equal the CPU backend's and the device memory stays within the budget.
TEST_F(CudaProverBudget, KeepsSomeQueriesResidentWhereNotAllFit) {
  const KeyQuerySizes k = KeyQuerySizes::of(*key_);
  const std::size_t most = CudaProverOptions{}.max_msm_pass_terms;
  // The least budget with a partial plan, in steps of 4 MiB.
  std::size_t budget = CudaProver::least_device_bytes(*key_);
  QueryResidency plan;
  for (; budget < 4 * point_bytes(); budget += std::size_t{4} << 20) {
    plan = plan_query_residency(k, most, true, budget);
    if (plan.any()) break;
  }
  ASSERT_TRUE(plan.any() && !plan.all(true)) << "no budget keeps some queries but not all";
  memory::BufferLedger ledger;
  ledger.set_device_limit(0, budget);
  CudaProver gpu(0, CudaProverOptions{.ledger = &ledger});
  groth16::CpuProver cpu;
  const Blinding blinding = Blinding::random();
  const groth16::Proof expected = groth16::prove(cpu, groth16::synthesize_witness(*circuit_, 0), *key_, blinding);
  EXPECT_EQ(groth16::prove(gpu, groth16::synthesize_witness(*circuit_, 0), *key_, blinding), expected);
  EXPECT_EQ(gpu.base_placement(*key_), BasePlacement::kPartlyResident);
  EXPECT_EQ(gpu.resident_queries(*key_), plan.names());
  // The resident queries' MSMs did not stream; only the others' points were copied.
  const std::size_t streamed_queries = 5 - (plan.l + plan.a + plan.b_g1 + plan.b_g2);
  EXPECT_EQ(gpu.streamed_totals().sums, streamed_queries);
  EXPECT_EQ(gpu.pinned_copy_bytes(), point_bytes() - plan.bytes(k));
  EXPECT_LE(ledger.snapshot().device(0).peak_bytes, budget);
}

// A deferred (pce) witness under a budget that holds the least a partition needs
// with its evaluator streamed, but not the evaluator resident: the matrices go up
// at every partition, the proofs equal the CPU backend's.
TEST_P(CudaProverBudgetStreaming, StreamsTheEvaluatorWhenItDoesNotFit) {
  auto compiled = std::make_shared<const r1cs::CompiledR1cs>(groth16::compile_circuit(*circuit_));
  const std::size_t least = CudaProver::least_device_bytes(*key_, compiled.get());
  ASSERT_GT(least, CudaProver::least_device_bytes(*key_));
  const std::size_t budget = least + (std::size_t{8} << 20);
  memory::BufferLedger ledger;
  ledger.set_device_limit(0, budget);
  CudaProver gpu(0, CudaProverOptions{.pin_streamed_sources = pinned(), .ledger = &ledger});
  groth16::CpuProver cpu;
  for (std::size_t p = 0; p < circuit_->partitions(); ++p) {
    const Blinding blinding = Blinding::random();
    const groth16::Proof expected = groth16::prove(cpu, groth16::synthesize_witness(*circuit_, p), *key_, blinding);
    groth16::PartitionWitness w = groth16::synthesize_witness(*circuit_, p, compiled);
    ASSERT_TRUE(w.is_deferred());
    EXPECT_EQ(groth16::prove(gpu, std::move(w), *key_, blinding), expected) << "partition " << p;
  }
  const CudaProver::StreamedTotals sent = gpu.streamed_totals();
  EXPECT_EQ(sent.evaluations, circuit_->partitions());
  EXPECT_GE(sent.evaluator_bytes, circuit_->partitions() * compiled->nonzeros() * 2 * sizeof(std::uint32_t));
  EXPECT_LE(ledger.snapshot().device(0).peak_bytes, budget);
  // The key's points and the evaluator's matrices, when copied.
  if (pinned()) {
    EXPECT_GE(gpu.pinned_copy_bytes(), point_bytes() + compiled->nonzeros() * 2 * sizeof(std::uint32_t));
  } else {
    EXPECT_EQ(gpu.pinned_copy_bytes(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(PinnedCopy, CudaProverBudgetStreaming, ::testing::Bool());

// Unlimited, the same deferred witnesses keep the evaluator resident: nothing of it
// is streamed.
TEST_F(CudaProverBudget, KeepsTheEvaluatorResidentWhenItFits) {
  auto compiled = std::make_shared<const r1cs::CompiledR1cs>(groth16::compile_circuit(*circuit_));
  CudaProver gpu(0);
  groth16::CpuProver cpu;
  const Blinding blinding = Blinding::random();
  const groth16::Proof expected = groth16::prove(cpu, groth16::synthesize_witness(*circuit_, 0), *key_, blinding);
  EXPECT_EQ(groth16::prove(gpu, groth16::synthesize_witness(*circuit_, 0, compiled), *key_, blinding), expected);
  EXPECT_EQ(gpu.streamed_totals().evaluations, 0u);
}

TEST_F(CudaProverBudget, RefusesAtOnceBelowTheLeastAPartitionNeeds) {
  const std::size_t least = CudaProver::least_device_bytes(*key_);
  memory::BufferLedger ledger;
  ledger.set_device_limit(0, least / 2);
  CudaProver gpu(0, CudaProverOptions{.ledger = &ledger});
  try {
    gpu.start(groth16::synthesize_witness(*circuit_, 0), *key_, Blinding::random());
    FAIL() << "a partition was started under half its least need";
  } catch (const groth16::DeviceOutOfMemory& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("budget"), std::string::npos) << message;
    EXPECT_NE(message.find("least"), std::string::npos) << message;
  }
  EXPECT_EQ(ledger.snapshot().device(0).peak_bytes, 0u);
}

}  // namespace
}  // namespace zkpipe::gpu
