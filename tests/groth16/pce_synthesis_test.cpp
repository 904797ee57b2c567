// The pre-compiled evaluator path (compile once, then values-only synthesis and the
// sparse product) against the ProvingAssignment path, on the PoRep-like presets:
// the same a, b, c, assignment and densities bit for bit, and the same proof for
// fixed r and s.
#include <gtest/gtest.h>

#include "groth16/cpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "circuits/porep_like/porep_circuit.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::groth16 {
namespace {

using porep_like::find_preset;
using porep_like::PorepLikeCircuit;

void expect_equal_witnesses(PartitionWitness x, const PartitionWitness& y) {
  ASSERT_TRUE(x.is_deferred());
  ASSERT_TRUE(x.a.empty() && x.assignment.aux.empty());
  materialize(x);
  EXPECT_FALSE(x.is_deferred());
  EXPECT_TRUE(x.assignment.compact_aux.empty());
  EXPECT_TRUE(x.assignment.inputs == y.assignment.inputs);
  EXPECT_TRUE(x.assignment.aux == y.assignment.aux);
  EXPECT_TRUE(x.a == y.a);
  EXPECT_TRUE(x.b == y.b);
  EXPECT_TRUE(x.c == y.c);
  EXPECT_EQ(x.assignment.a_aux_density.words(), y.assignment.a_aux_density.words());
  EXPECT_EQ(x.assignment.b_input_density.words(), y.assignment.b_input_density.words());
  EXPECT_EQ(x.assignment.b_aux_density.words(), y.assignment.b_aux_density.words());
}

class PceSynthesis : public ::testing::TestWithParam<const char*> {};

TEST_P(PceSynthesis, EqualsProvingAssignmentBitForBit) {
  const PorepLikeCircuit circuit(find_preset(GetParam()), 17, 2);
  const auto compiled = std::make_shared<const r1cs::CompiledR1cs>(compile_circuit(circuit));
  const r1cs::R1csMatrices recorded = record_matrices(circuit);
  EXPECT_EQ(compiled->num_constraints, recorded.num_constraints());
  EXPECT_EQ(compiled->num_inputs, recorded.num_inputs);
  EXPECT_EQ(compiled->num_aux, recorded.num_aux);
  for (std::size_t p = 0; p < 2; ++p) {
    SCOPED_TRACE("partition " + std::to_string(p));
    expect_equal_witnesses(synthesize_witness(circuit, p, compiled), synthesize_witness(circuit, p));
  }
}

// The challenges synthesized on all cores land in the sequential variable order.
TEST_P(PceSynthesis, ParallelChallengesGiveTheSequentialAssignment) {
  const PorepLikeCircuit circuit(find_preset(GetParam()), 5, 1);
  r1cs::WitnessSystem sequential;
  circuit.synthesize(sequential, 0);
  const r1cs::WitnessValues parallel = circuit.synthesize_values(0);
  EXPECT_TRUE(parallel.inputs == sequential.inputs());
  EXPECT_TRUE(parallel.aux.expand() == sequential.aux_values());
}

INSTANTIATE_TEST_SUITE_P(Presets, PceSynthesis, ::testing::Values("tiny", "2e16", "2e20"));

TEST(PceSynthesis, SameProofForFixedBlinding) {
  const PorepLikeCircuit circuit(find_preset("tiny"), 3, 1);
  const ProvingKey key = setup(record_matrices(circuit), ToxicWaste::from_seed(4));
  const auto compiled = std::make_shared<const r1cs::CompiledR1cs>(compile_circuit(circuit));
  CpuProver cpu;
  PartitionWitness pce = synthesize_witness(circuit, 0, compiled);
  PartitionWitness assignment = synthesize_witness(circuit, 0);
  const Proof a = prove(cpu, std::move(pce), key, Blinding::zero());
  const Proof b = prove(cpu, std::move(assignment), key, Blinding::zero());
  EXPECT_EQ(a, b);
  EXPECT_TRUE(verify(PreparedVerifyingKey(key.vk), a, circuit.public_inputs(0)));
}

// The CPU backend materializes a deferred witness inside start(): the pending proof
// holds the full aux (what its finish() reads), not the compact form.
TEST(PceSynthesis, PendingProofHoldsTheMaterializedAssignment) {
  const PorepLikeCircuit circuit(find_preset("tiny"), 3, 1);
  const ProvingKey key = setup(record_matrices(circuit), ToxicWaste::from_seed(4));
  const auto compiled = std::make_shared<const r1cs::CompiledR1cs>(compile_circuit(circuit));
  CpuProver cpu;
  auto pending = cpu.start(synthesize_witness(circuit, 0, compiled), key, Blinding::zero());
  ASSERT_NE(pending->assignment, nullptr);
  EXPECT_TRUE(pending->assignment->aux == synthesize_witness(circuit, 0).assignment.aux);
  EXPECT_TRUE(pending->assignment->compact_aux.empty());
  EXPECT_TRUE(verify(PreparedVerifyingKey(key.vk), cpu.finish(std::move(pending)), circuit.public_inputs(0)));
}

// As on the assignment path, a witness that does not satisfy the circuit is refused
// before anything is proved, naming the constraint.
TEST(PceSynthesis, UnsatisfiedDeferredWitnessIsRefused) {
  const PorepLikeCircuit circuit(find_preset("tiny"), 3, 1);
  const ProvingKey key = setup(record_matrices(circuit), ToxicWaste::from_seed(4));
  const auto compiled = std::make_shared<const r1cs::CompiledR1cs>(compile_circuit(circuit));
  PartitionWitness w = synthesize_witness(circuit, 0, compiled);
  std::vector<ff::Fr> aux = w.assignment.compact_aux.expand();
  aux[100] = aux[100].is_zero() ? ff::Fr::one() : ff::Fr::zero();
  w.assignment.compact_aux = r1cs::CompactValues::of(aux);
  CpuProver cpu;
  EXPECT_THROW(cpu.start(std::move(w), key, Blinding::zero()), UnsatisfiedConstraint);
}

TEST(PceSynthesis, CompiledFormOfAnotherCircuitIsRefused) {
  const PorepLikeCircuit tiny(find_preset("tiny"), 3, 1);
  const PorepLikeCircuit other(find_preset("2e16"), 3, 1);
  const auto compiled = std::make_shared<const r1cs::CompiledR1cs>(compile_circuit(other));
  EXPECT_THROW(synthesize_witness(tiny, 0, compiled), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::groth16
