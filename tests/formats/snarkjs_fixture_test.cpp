// End to end on the snarkjs fixture sets: parse every file, prove with r = s = 0 and
// compare with snarkjs's deterministic proof byte for byte, verify snarkjs's own proof.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>

#include "fixtures.hpp"
#include "formats/decimal.hpp"
#include "formats/r1cs_file.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/snarkjs_witness.hpp"
#include "formats/wtns_file.hpp"
#include "formats/zkey_file.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/verifier.hpp"
#include "io/bounded_read.hpp"
#include "poly/evaluation_domain.hpp"

namespace zkpipe::formats {
namespace {

using ff::Fr;
using testing::fixture_dir;
using testing::scratch_path;

struct FixtureSet {
  std::string name;
  std::uint32_t constraints;
  std::uint32_t public_signals;
  std::uint32_t domain_size;
};

class SnarkjsFixture : public ::testing::TestWithParam<FixtureSet> {
 protected:
  std::filesystem::path file(const char* name) const { return fixture_dir(GetParam().name) / name; }
  std::string text(const char* name) const { return io::read_bounded_file(file(name), std::size_t{64} << 20, name); }

  // Reading a key checks every point's subgroup, the slow part: read each set once.
  const Zkey& zkey() const {
    static std::map<std::string, std::unique_ptr<const Zkey>> cache;
    auto& slot = cache[GetParam().name];
    if (!slot) slot = std::make_unique<const Zkey>(read_zkey(file("circuit_final.zkey")));
    return *slot;
  }

  std::vector<Fr> public_signals(const std::vector<Fr>& witness) const {
    return {witness.begin() + 1, witness.begin() + 1 + GetParam().public_signals};
  }

  groth16::Proof prove_rs0(const Zkey& zkey, const std::vector<Fr>& witness) const {
    groth16::PartitionWitness w = zkey_witness(zkey, witness);
    groth16::CpuProver prover;
    return groth16::prove(prover, std::move(w), zkey.key, groth16::Blinding::zero());
  }
};

TEST_P(SnarkjsFixture, ReadsConsistentFiles) {
  const R1csFile r1cs = read_r1cs(file("circuit.r1cs"));
  EXPECT_EQ(r1cs.header.n_constraints, GetParam().constraints);
  EXPECT_EQ(r1cs.header.n_public(), GetParam().public_signals);
  const std::vector<Fr> witness = read_wtns(file("witness.wtns"));
  ASSERT_EQ(witness.size(), r1cs.header.n_wires);
  EXPECT_FALSE(r1cs.first_unsatisfied(witness).has_value());

  const Zkey& zkey = this->zkey();
  EXPECT_EQ(zkey.header.domain_size, GetParam().domain_size);
  EXPECT_EQ(zkey.key.domain_size(), GetParam().domain_size);
  EXPECT_NO_THROW(check_same_circuit(r1cs, "circuit.r1cs", zkey.header, "circuit_final.zkey"));
  // One A coefficient per public signal and ONE beyond the circuit's own rows.
  EXPECT_GE(zkey.a_coefficients.size(), std::size_t{GetParam().public_signals} + 1);

  EXPECT_EQ(public_from_json(text("public.json"), "public.json"), public_signals(witness));
}

TEST_P(SnarkjsFixture, ProofWithZeroBlindingIsSnarkjsReferenceByteForByte) {
  const Zkey& zkey = this->zkey();
  const std::vector<Fr> witness = read_wtns(file("witness.wtns"));
  EXPECT_EQ(proof_to_json(prove_rs0(zkey, witness)), text("refproof_rs0.json"));
  EXPECT_EQ(public_to_json(public_signals(witness)), text("refproof_rs0_public.json"));
  EXPECT_EQ(public_to_json(public_signals(witness)), text("public.json"));
}

TEST_P(SnarkjsFixture, R1csWitnessGivesTheSameProof) {
  const Zkey& zkey = this->zkey();
  const R1csFile r1cs = read_r1cs(file("circuit.r1cs"));
  const std::vector<Fr> witness = read_wtns(file("witness.wtns"));
  groth16::PartitionWitness w = r1cs_witness(r1cs, zkey.key, witness);
  groth16::CpuProver prover;
  const groth16::Proof proof = groth16::prove(prover, std::move(w), zkey.key, groth16::Blinding::zero());
  EXPECT_EQ(proof_to_json(proof), text("refproof_rs0.json"));

  std::vector<Fr> wrong = witness;
  wrong.back() += Fr::one();
  groth16::PartitionWitness bad = r1cs_witness(r1cs, zkey.key, wrong);
  EXPECT_THROW(groth16::prove(prover, std::move(bad), zkey.key, groth16::Blinding::zero()), groth16::UnsatisfiedConstraint);
}

TEST_P(SnarkjsFixture, VerifyingKeyJsonIsSnarkjsExportByteForByte) {
  const Zkey& zkey = this->zkey();
  // vk_alphabeta_12 = e(α, β) checks the pairing and the Fp12 tower layout too.
  EXPECT_EQ(verifying_key_to_json(zkey.key.vk), text("verification_key.json"));
  const groth16::VerifyingKey vk = verifying_key_from_json(text("verification_key.json"), "verification_key.json");
  EXPECT_EQ(vk.alpha_g1, zkey.key.vk.alpha_g1);
  EXPECT_EQ(vk.beta_g2, zkey.key.vk.beta_g2);
  EXPECT_EQ(vk.gamma_g2, zkey.key.vk.gamma_g2);
  EXPECT_EQ(vk.delta_g2, zkey.key.vk.delta_g2);
  EXPECT_EQ(vk.ic, zkey.key.vk.ic);
}

TEST_P(SnarkjsFixture, VerifiesSnarkjsProofsAndRejectsTamperedOnes) {
  const groth16::VerifyingKey vk = verifying_key_from_json(text("verification_key.json"), "vk");
  const groth16::PreparedVerifyingKey pvk(vk);
  const std::vector<Fr> inputs = public_from_json(text("public.json"), "public.json");
  const groth16::Proof proof = proof_from_json(text("proof.json"), "proof.json");
  EXPECT_TRUE(groth16::verify(pvk, proof, inputs));
  EXPECT_TRUE(groth16::verify(pvk, proof_from_json(text("refproof_rs0.json"), "rs0"), inputs));

  std::vector<Fr> wrong_inputs = inputs;
  wrong_inputs.back() += Fr::one();
  EXPECT_FALSE(groth16::verify(pvk, proof, wrong_inputs));
  groth16::Proof swapped = proof;
  swapped.a = proof.c;
  EXPECT_FALSE(groth16::verify(pvk, swapped, inputs));
  groth16::Proof negated = proof;
  negated.c = -proof.c;
  EXPECT_FALSE(groth16::verify(pvk, negated, inputs));
}

TEST_P(SnarkjsFixture, NativeParameterFileKeepsTheSnarkjsLayout) {
  const Zkey& zkey = this->zkey();
  const auto path = scratch_path(GetParam().name + ".zkp");
  groth16::write_parameter_file(path, zkey.key);
  const groth16::ProvingKey loaded = groth16::load_parameter_file(path);
  EXPECT_EQ(loaded.h_query, groth16::HQuery::kSnarkjsOddCoset);
  EXPECT_EQ(loaded, zkey.key);
  const R1csFile r1cs = read_r1cs(file("circuit.r1cs"));
  groth16::PartitionWitness w = r1cs_witness(r1cs, loaded, read_wtns(file("witness.wtns")));
  groth16::CpuProver prover;
  EXPECT_EQ(proof_to_json(groth16::prove(prover, std::move(w), loaded, groth16::Blinding::zero())), text("refproof_rs0.json"));
  std::filesystem::remove(path);
}

TEST_P(SnarkjsFixture, RandomBlindingVerifies) {
  const Zkey& zkey = this->zkey();
  const std::vector<Fr> witness = read_wtns(file("witness.wtns"));
  groth16::PartitionWitness w = zkey_witness(zkey, witness);
  groth16::CpuProver prover;
  const groth16::Proof proof = groth16::prove(prover, std::move(w), zkey.key, groth16::Blinding::random());
  const groth16::PreparedVerifyingKey pvk(zkey.key.vk);
  EXPECT_TRUE(groth16::verify(pvk, proof, public_signals(witness)));
  // Through JSON and back, as snarkjs would read it.
  EXPECT_EQ(proof_from_json(proof_to_json(proof), "proof"), proof);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SnarkjsFixture,
                         ::testing::Values(FixtureSet{"chain-2e10", 1024, 2, 2048},
                                           FixtureSet{"sorted64x16", 2255, 3, 4096}),
                         [](const auto& info) {
                           std::string n = info.param.name;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// The fixtures' prover_intermediates.json lists ffjavascript's roots for n = 2048.
TEST(SnarkjsRoots, FiveBasedRootsMatchFfjavascript) {
  const Fr five = Fr::from_u64(5);
  EXPECT_EQ(to_decimal(poly::root_of_unity_from(five, 11)),
            "30450688096165933124094588052280452792793350252342406284806180166247113753719");
  EXPECT_EQ(to_decimal(poly::root_of_unity_from(five, 12)),
            "7712148129911606624315688729500842900222944762233088101895611600385646063109");
  EXPECT_THROW(poly::root_of_unity_from(Fr::from_u64(4), 11), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::formats
