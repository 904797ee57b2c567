#include <gtest/gtest.h>

#include <random>

#include "ec/generators.hpp"
#include "ec/jacobian.hpp"
#include "ec/serialization.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "test_circuits.hpp"

namespace zkpipe::groth16 {
namespace {

using ff::Fr;
using testing::cubic_public_inputs;
using testing::cubic_with_bits;

const std::vector<bool> kBits = {1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 1};

// One setup shared by every test (it is the slow part).
struct SharedKey {
  r1cs::R1csMatrices matrices = testing::record([](auto& cs) { cubic_with_bits(cs, Fr::from_u64(3), kBits); });
  ProvingKey key = setup(matrices, ToxicWaste::from_seed(42));
  PreparedVerifyingKey pvk{key.vk};
};

const SharedKey& shared_key() {
  static const SharedKey k;
  return k;
}

class Groth16Cubic : public ::testing::Test {
 protected:
  PartitionWitness witness(const Fr& x) {
    return testing::synthesize([&](auto& cs) { cubic_with_bits(cs, x, kBits); });
  }

  Proof prove_x(const Fr& x, const Blinding& blinding = Blinding::random()) {
    CpuProver cpu;
    return prove(cpu, witness(x), *key_, blinding);
  }


  const r1cs::R1csMatrices* matrices_ = &shared_key().matrices;
  const ProvingKey* key_ = &shared_key().key;
  const PreparedVerifyingKey* pvk_ = &shared_key().pvk;
};

TEST_F(Groth16Cubic, KeyShapeFollowsTheCircuit) {
  EXPECT_EQ(key_->num_inputs(), 1 + 1 + kBits.size());
  EXPECT_EQ(key_->num_aux(), matrices_->num_aux);
  EXPECT_GE(key_->domain_size(), matrices_->num_constraints());
  EXPECT_EQ(key_->a.size(), key_->num_inputs() + std::count(key_->density.a_aux.begin(), key_->density.a_aux.end(), true));
  EXPECT_EQ(key_->b_g1.size(), key_->b_g2.size());
}

TEST_F(Groth16Cubic, ProofVerifies) {
  Fr x = Fr::from_u64(3);
  EXPECT_TRUE(verify(*pvk_, prove_x(x), cubic_public_inputs(x, kBits)));
}

TEST_F(Groth16Cubic, RandomWitnessesVerify) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 3; ++i) {
    Fr x = Fr::random(rng);
    EXPECT_TRUE(verify(*pvk_, prove_x(x), cubic_public_inputs(x, kBits)));
  }
}

TEST_F(Groth16Cubic, ZeroBlindingIsDeterministicAndRandomIsNot) {
  Fr x = Fr::from_u64(11);
  EXPECT_EQ(prove_x(x, Blinding::zero()), prove_x(x, Blinding::zero()));
  EXPECT_NE(prove_x(x), prove_x(x));
}

TEST_F(Groth16Cubic, WrongPublicInputRejected) {
  Fr x = Fr::from_u64(5);
  Proof proof = prove_x(x);
  auto inputs = cubic_public_inputs(x, kBits);
  inputs[0] += Fr::one();
  EXPECT_FALSE(verify(*pvk_, proof, inputs));
  inputs = cubic_public_inputs(x, kBits);
  inputs[3] = inputs[3].is_zero() ? Fr::one() : Fr::zero();
  EXPECT_FALSE(verify(*pvk_, proof, inputs));
}

TEST_F(Groth16Cubic, WrongNumberOfInputsIsAnError) {
  Fr x = Fr::from_u64(5);
  auto inputs = cubic_public_inputs(x, kBits);
  inputs.pop_back();
  EXPECT_THROW(verify(*pvk_, prove_x(x), inputs), std::invalid_argument);
}

TEST_F(Groth16Cubic, TamperedProofRejected) {
  Fr x = Fr::from_u64(9);
  Proof good = prove_x(x);
  auto inputs = cubic_public_inputs(x, kBits);
  Proof swapped_a = good;
  swapped_a.a = good.c;
  EXPECT_FALSE(verify(*pvk_, swapped_a, inputs));
  Proof moved_c = good;
  moved_c.c = (ec::Jacobian<ec::G1Curve>::from_affine(good.c) + ec::kG1Generator).to_affine();
  EXPECT_FALSE(verify(*pvk_, moved_c, inputs));
  Proof negated_b = good;
  negated_b.b = -good.b;
  EXPECT_FALSE(verify(*pvk_, negated_b, inputs));
}

TEST_F(Groth16Cubic, WrongKeyRejected) {
  ProvingKey other = setup(*matrices_, ToxicWaste::from_seed(43));
  Fr x = Fr::from_u64(3);
  EXPECT_FALSE(verify(PreparedVerifyingKey(other.vk), prove_x(x), cubic_public_inputs(x, kBits)));
}

// start() takes the witness: the pending proof owns what finish() reads, so the
// proof comes out right once the caller's witness is gone.
TEST_F(Groth16Cubic, PendingProofFinishesAfterTheWitnessIsGone) {
  const Fr x = Fr::from_u64(21);
  CpuProver cpu;
  std::unique_ptr<PendingProof> pending;
  std::vector<Fr> aux;
  {
    PartitionWitness w = witness(x);
    aux = w.assignment.aux;
    pending = cpu.start(std::move(w), *key_, Blinding::random());
  }
  ASSERT_NE(pending->assignment, nullptr);
  EXPECT_EQ(pending->assignment->aux, aux);
  EXPECT_FALSE(pending->timings.empty());
  EXPECT_TRUE(verify(*pvk_, cpu.finish(std::move(pending)), cubic_public_inputs(x, kBits)));
}

// A caller that holds on to the assignment (the engine, to free it on its dealloc
// thread) is its last owner once finish() has consumed the pending proof.
TEST_F(Groth16Cubic, AssignmentIsSharedWithThePendingProof) {
  CpuProver cpu;
  auto pending = cpu.start(witness(Fr::from_u64(22)), *key_, Blinding::random());
  const std::shared_ptr<const Assignment> kept = pending->assignment;
  EXPECT_EQ(kept.use_count(), 2);
  cpu.finish(std::move(pending));
  EXPECT_EQ(kept.use_count(), 1);
  EXPECT_EQ(kept->inputs.size(), key_->num_inputs());
}

TEST_F(Groth16Cubic, AbortReleasesThePendingProof) {
  CpuProver cpu;
  auto pending = cpu.start(witness(Fr::from_u64(2)), *key_, Blinding::random());
  cpu.abort(std::move(pending));
  EXPECT_EQ(pending, nullptr);
}

TEST_F(Groth16Cubic, UnsatisfiedWitnessIsRefusedNamingTheConstraint) {
  PartitionWitness w = witness(Fr::from_u64(4));
  w.c[1] += Fr::one();
  CpuProver cpu;
  try {
    cpu.start(std::move(w), *key_, Blinding::random());
    FAIL() << "prover accepted an unsatisfied witness";
  } catch (const UnsatisfiedConstraint& e) {
    EXPECT_EQ(e.index(), 1u);
    EXPECT_NE(std::string(e.what()).find("constraint 1"), std::string::npos);
  }
}

TEST_F(Groth16Cubic, WitnessOfAnotherShapeIsRefused) {
  PartitionWitness w = testing::synthesize([](auto& cs) { cubic_with_bits(cs, Fr::from_u64(4), {1, 0}); });
  CpuProver cpu;
  EXPECT_THROW(cpu.start(std::move(w), *key_, Blinding::random()), std::invalid_argument);
}

TEST_F(Groth16Cubic, BatchVerification) {
  std::vector<Proof> proofs;
  std::vector<std::vector<Fr>> inputs;
  for (std::uint64_t i = 1; i <= 3; ++i) {
    Fr x = Fr::from_u64(i * 100);
    proofs.push_back(prove_x(x));
    inputs.push_back(cubic_public_inputs(x, kBits));
  }
  EXPECT_TRUE(verify_batch(*pvk_, proofs, inputs));
  inputs[1][0] += Fr::one();
  EXPECT_FALSE(verify_batch(*pvk_, proofs, inputs));
}

TEST_F(Groth16Cubic, ProofEncodingRoundTrip) {
  Proof p = prove_x(Fr::from_u64(8));
  auto bytes = p.encode();
  EXPECT_EQ(Proof::decode(bytes), p);
  std::vector<Proof> three{p, p, p};
  auto all = encode_proofs(three);
  EXPECT_EQ(all.size(), 3 * Proof::kEncodedSize);
  EXPECT_EQ(decode_proofs(all), three);
  all.pop_back();
  EXPECT_THROW(decode_proofs(all), std::invalid_argument);
  bytes[50] ^= 0x01;  // inside B's x coordinate: no longer a valid point (or not in G2)
  EXPECT_THROW(Proof::decode(bytes), ec::PointDecodeError);
}

}  // namespace
}  // namespace zkpipe::groth16
