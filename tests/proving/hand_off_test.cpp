#include "proving/hand_off.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "engine/engine.hpp"
#include "groth16/cpu_prover.hpp"
#include "tiny_key.hpp"

namespace zkpipe::proving {
namespace {

using testing::tiny_circuit;
using testing::tiny_key;

class HandOffTest : public ::testing::Test {
 protected:
  HandOffTest()
      : engine_({.synthesis_workers = 2}, {std::make_shared<groth16::CpuProver>()}),
        basis_(request_basis(engine_.make_resident(tiny_key(5)), groth16::CpuProver())) {}
  ~HandOffTest() override { engine_.shutdown(engine::ShutdownMode::drain); }

  engine::ProofResult prove(HandedRequest& handed) { return engine_.submit(std::move(handed.request)).get(); }

  engine::Engine engine_;
  RequestBasis basis_;
};

// Partitions 2 and 0 of four, in that order: the engine's partition k is the
// request's partitions[k], synthesized and checked as that partition.
TEST_F(HandOffTest, ASubsetOfPartitionsIsProvedAndCheckedAsThosePartitions) {
  const auto circuit = tiny_circuit(7, 4);
  PreparedRequest prepared = preset_request(basis_, circuit);
  const PartitionCheck check = prepared.check;
  HandedRequest handed =
      hand_off(prepared, {.label = "two of four", .priority = engine::Priority::high, .partitions = {2, 0}, .verify = true});
  EXPECT_EQ(handed.request.partitions, 2u);
  EXPECT_EQ(handed.request.label, "two of four");
  EXPECT_EQ(handed.request.priority, engine::Priority::high);
  const engine::ProofResult result = prove(handed);
  ASSERT_EQ(result.proofs.size(), 2u);
  EXPECT_TRUE(result.verified);
  EXPECT_TRUE(check(2, result.proofs[0]));
  EXPECT_TRUE(check(0, result.proofs[1]));
  EXPECT_FALSE(check(0, result.proofs[0]));
  EXPECT_EQ(handed.first_failed->load(), 4u);
}

// The batch check fails for every partition proved against another instance's
// inputs; the partition named is the first that fails on its own, in the request's
// numbering, not the engine's.
TEST_F(HandOffTest, TheFirstPartitionThatDoesNotVerifyIsNamedInTheRequestsNumbering) {
  PreparedRequest prepared = preset_request(basis_, tiny_circuit(7, 3));
  prepared.check = [check = prepared.check](std::size_t p, const groth16::Proof& proof) {
    return p != 1 && check(p, proof);
  };
  HandedRequest handed =
      hand_off(prepared, {.label = {}, .priority = engine::Priority::normal, .partitions = {0, 1}, .verify = true});
  EXPECT_THROW(prove(handed), engine::RequestFailed);
  EXPECT_EQ(handed.first_failed->load(), 1u);

  // Every partition: the batch check passes, the per-partition check is not asked.
  PreparedRequest whole = preset_request(basis_, tiny_circuit(7, 3));
  std::atomic<int> asked{0};
  whole.check = [&asked](std::size_t, const groth16::Proof&) {
    ++asked;
    return false;
  };
  HandedRequest all =
      hand_off(whole, {.label = {}, .priority = engine::Priority::normal, .partitions = {}, .verify = true});
  EXPECT_TRUE(prove(all).verified);
  EXPECT_EQ(asked.load(), 0);
}

TEST_F(HandOffTest, WithoutVerificationNothingIsCheckedAndAPartitionOutsideTheRequestIsRefused) {
  PreparedRequest prepared = preset_request(basis_, tiny_circuit(7, 2));
  prepared.check = [](std::size_t, const groth16::Proof&) { return false; };
  HandedRequest handed =
      hand_off(prepared, {.label = {}, .priority = engine::Priority::normal, .partitions = {}, .verify = false});
  EXPECT_EQ(handed.request.verify, nullptr);
  const engine::ProofResult result = prove(handed);
  EXPECT_EQ(result.proofs.size(), 2u);
  EXPECT_FALSE(result.verified);

  PreparedRequest other = preset_request(basis_, tiny_circuit(7, 2));
  EXPECT_THROW(hand_off(other, {.label = {}, .priority = engine::Priority::normal, .partitions = {2}, .verify = true}),
               std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::proving
