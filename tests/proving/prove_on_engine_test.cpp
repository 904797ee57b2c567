#include "proving/prove_on_engine.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "groth16/cpu_prover.hpp"
#include "proving/engine_budget.hpp"
#include "tiny_key.hpp"

namespace zkpipe::proving {
namespace {

using testing::tiny_circuit;
using testing::tiny_key;

std::vector<std::shared_ptr<groth16::ProverBackend>> cpu_backend() {
  return {std::make_shared<groth16::CpuProver>()};
}

EngineRun two_workers() {
  EngineRun run;
  run.engine.synthesis_workers = 2;
  return run;
}

ProofInputs tiny_inputs(std::shared_ptr<const r1cs::PartitionedCircuit> circuit) {
  return preset_inputs(tiny_key(5), nullptr, std::move(circuit));
}

TEST(ProveOnEngine, ProvesEveryPartitionVerifiedAndRecordsTheTraceWhenAsked) {
  const auto circuit = tiny_circuit(7, 2);
  EngineRun run = two_workers();
  run.trace = true;
  int checked = 0;
  ProofInputs inputs = tiny_inputs(circuit);
  inputs.expect_inputs_undamaged = [&checked] { ++checked; };
  const EngineRunResult out = prove_on_engine(cpu_backend(), run, inputs);
  ASSERT_EQ(out.result.proofs.size(), 2u);
  EXPECT_TRUE(out.result.verified);
  EXPECT_EQ(checked, 1);
  ASSERT_EQ(out.devices.size(), 1u);
  EXPECT_NE(out.chrome_trace.find("traceEvents"), std::string::npos);
  EXPECT_EQ(out.public_signals, nullptr);
  engine::Engine checker({.synthesis_workers = 1}, cpu_backend());
  const PartitionCheck check =
      preset_request(request_basis(checker.make_resident(tiny_key(5)), groth16::CpuProver()), circuit).check;
  checker.shutdown(engine::ShutdownMode::drain);
  EXPECT_TRUE(check(0, out.result.proofs[0]));
  EXPECT_TRUE(check(1, out.result.proofs[1]));

  run.trace = false;
  run.verify = false;
  const EngineRunResult unverified = prove_on_engine(cpu_backend(), run, tiny_inputs(circuit));
  EXPECT_FALSE(unverified.result.verified);
  EXPECT_TRUE(unverified.chrome_trace.empty());
}

// Proofs of one instance checked against another's public inputs: the real pairing
// check fails, and the error names the first partition that does not verify.
TEST(ProveOnEngine, AProofThatDoesNotVerifyIsNeverReturnedAndItsPartitionIsNamed) {
  const auto proved = tiny_circuit(7, 3);
  const auto claimed = tiny_circuit(8, 3);
  ProofInputs inputs = tiny_inputs(proved);
  inputs.request = [proved, claimed](const RequestBasis& basis) {
    PreparedRequest request = preset_request(basis, proved);
    PreparedRequest other = preset_request(basis, claimed);
    request.request.verify = other.request.verify;
    request.check = other.check;
    return request;
  };
  try {
    prove_on_engine(cpu_backend(), two_workers(), inputs);
    ADD_FAILURE() << "returned proofs that do not verify";
  } catch (const ProofNotVerified& e) {
    EXPECT_EQ(e.partition(), 0u);
    EXPECT_STREQ(e.what(), "partition 0's proof does not verify");
  }
  // Only the second partition's check fails: it is the one named.
  inputs.request = [proved](const RequestBasis& basis) {
    PreparedRequest request = preset_request(basis, proved);
    request.check = [check = request.check](std::size_t p, const groth16::Proof& proof) {
      return p != 1 && check(p, proof);
    };
    request.request.verify = nullptr;
    return request;
  };
  try {
    prove_on_engine(cpu_backend(), two_workers(), inputs);
    ADD_FAILURE() << "returned proofs that do not verify";
  } catch (const ProofNotVerified& e) {
    EXPECT_EQ(e.partition(), 1u);
  }
}

// A damaged key file is the truer reason for a failure than the failure itself.
TEST(ProveOnEngine, ADamagedInputIsReportedBeforeTheFailureItCaused) {
  ProofInputs inputs = tiny_inputs(tiny_circuit(7, 1));
  inputs.request = [circuit = tiny_circuit(7, 1)](const RequestBasis& basis) {
    PreparedRequest request = preset_request(basis, circuit);
    request.request.verify = [](std::span<const groth16::Proof>) { return false; };
    return request;
  };
  inputs.expect_inputs_undamaged = [] { throw std::runtime_error("key.zkp was truncated"); };
  EXPECT_THROW(
      {
        try {
          prove_on_engine(cpu_backend(), two_workers(), inputs);
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "key.zkp was truncated");
          throw;
        }
      },
      std::runtime_error);
}

TEST(EngineBudget, ParsesEveryFormAndRefusesWhatIsNotABudget) {
  EXPECT_EQ(parse_budget("auto").kind, BudgetSpec::Kind::automatic);
  const BudgetSpec bytes = parse_budget("8G");
  EXPECT_EQ(bytes.kind, BudgetSpec::Kind::bytes);
  EXPECT_EQ(bytes.value, static_cast<double>(std::size_t{8} << 30));
  EXPECT_EQ(parse_budget("8GB").value, 8e9);
  const BudgetSpec sets = parse_budget("2.5x");
  EXPECT_EQ(sets.kind, BudgetSpec::Kind::working_sets);
  EXPECT_EQ(sets.value, 2.5);
  for (const char* bad : {"", "x", "-1x", "0x", "2000000x", "lots", "512", "2PiB", "nanx"}) {
    EXPECT_THROW(parse_budget(bad), std::invalid_argument) << bad;
  }
  try {
    parse_budget("lots");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("--budget 'lots': not a byte size"), std::string::npos) << e.what();
  }
  EXPECT_EQ(resolve_budget(parse_budget("1GiB"), 5, 7), std::size_t{1} << 30);
  EXPECT_EQ(resolve_budget(parse_budget("3x"), 100, 1000), 3100u);
}

}  // namespace
}  // namespace zkpipe::proving
