// Keys whose points make the pairing equation trivial: each relation is shown to let
// a witness-free proof verify (so the check is not theoretical), then to be refused.
#include "groth16/key_validation.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "ec/jacobian.hpp"
#include "ec/msm/msm.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "test_circuits.hpp"

namespace zkpipe::groth16 {
namespace {

using ff::Fr;
using G1 = ec::Jacobian<ec::G1Curve>;

const std::vector<bool> kKeyBits = {1, 0, 1, 1, 0, 1};

const ProvingKey& honest_key() {
  static const ProvingKey key =
      setup(testing::record([](auto& cs) { testing::cubic_with_bits(cs, Fr::from_u64(5), kKeyBits); }),
            ToxicWaste::from_seed(11));
  return key;
}

// Public inputs no witness was ever computed for.
std::vector<Fr> arbitrary_inputs(const VerifyingKey& vk) {
  std::vector<Fr> x;
  for (std::size_t i = 1; i < vk.ic.size(); ++i) x.push_back(Fr::from_u64(1000 + 7 * i));
  return x;
}

G1Affine input_commitment(const VerifyingKey& vk, const std::vector<Fr>& x) {
  G1 acc = G1::from_affine(vk.ic[0]);
  acc += ec::msm<ec::G1Curve>(std::span(vk.ic).subspan(1), x);
  return acc.to_affine();
}

G1Affine sum(const G1Affine& p, const G1Affine& q) { return (G1::from_affine(p) + G1::from_affine(q)).to_affine(); }

struct Degenerate {
  const char* name;
  std::function<void(VerifyingKey&)> break_key;
  // The proof that verifies under the broken key for inputs x, with no witness.
  std::function<Proof(const VerifyingKey&, const std::vector<Fr>&)> forge;
  const char* expected_message;
};

const std::vector<Degenerate>& degenerate_keys() {
  static const std::vector<Degenerate> cases = {
      {"gamma = delta", [](VerifyingKey& vk) { vk.delta_g2 = vk.gamma_g2; },
       [](const VerifyingKey& vk, const std::vector<Fr>& x) {
         return Proof{vk.alpha_g1, vk.beta_g2, -input_commitment(vk, x)};
       },
       "vk_gamma_2 = vk_delta_2"},
      {"gamma = -delta", [](VerifyingKey& vk) { vk.delta_g2 = -vk.gamma_g2; },
       [](const VerifyingKey& vk, const std::vector<Fr>& x) {
         return Proof{vk.alpha_g1, vk.beta_g2, input_commitment(vk, x)};
       },
       "vk_gamma_2 = -vk_delta_2"},
      {"gamma = beta", [](VerifyingKey& vk) { vk.gamma_g2 = vk.beta_g2; },
       [](const VerifyingKey& vk, const std::vector<Fr>& x) {
         return Proof{sum(vk.alpha_g1, input_commitment(vk, x)), vk.beta_g2, G1Affine::identity()};
       },
       "vk_gamma_2 = vk_beta_2"},
      {"delta = -beta", [](VerifyingKey& vk) { vk.delta_g2 = -vk.beta_g2; },
       [](const VerifyingKey& vk, const std::vector<Fr>& x) {
         return Proof{input_commitment(vk, x), vk.gamma_g2, vk.alpha_g1};
       },
       "vk_delta_2 = -vk_beta_2"},
      {"IC[0] at infinity", [](VerifyingKey& vk) { vk.ic[0] = G1Affine::identity(); },
       [](const VerifyingKey& vk, const std::vector<Fr>&) {
         return Proof{vk.alpha_g1, vk.beta_g2, G1Affine::identity()};
       },
       "IC[0] is the point at infinity"},
  };
  return cases;
}

TEST(InsecureKey, EachRelationLetsAWitnessFreeProofVerifyAndIsRefused) {
  for (const Degenerate& d : degenerate_keys()) {
    SCOPED_TRACE(d.name);
    VerifyingKey vk = honest_key().vk;
    d.break_key(vk);
    // IC[0] alone at infinity forges only the all-zero statement.
    const std::vector<Fr> x = vk.ic[0].is_identity() ? std::vector<Fr>(vk.ic.size() - 1, Fr::zero())
                                                      : arbitrary_inputs(vk);
    const Proof forged = d.forge(vk, x);
    EXPECT_TRUE(verify(PreparedVerifyingKey(vk, InsecureKey::kAllow), forged, x));

    const auto problem = verifying_key_problem(vk);
    ASSERT_TRUE(problem.has_value());
    EXPECT_NE(problem->find(d.expected_message), std::string::npos) << *problem;
    EXPECT_NE(problem->find("trivial"), std::string::npos) << *problem;
    EXPECT_FALSE(verifying_key_problem(vk, InsecureKey::kAllow).has_value());
    EXPECT_THROW(PreparedVerifyingKey{vk}, std::invalid_argument);
  }
}

TEST(InsecureKey, TheHonestKeyRejectsTheSameForgeries) {
  const VerifyingKey& vk = honest_key().vk;
  EXPECT_FALSE(verifying_key_problem(vk).has_value());
  EXPECT_FALSE(insecure_key_relation(vk).has_value());
  const PreparedVerifyingKey pvk(vk);
  const std::vector<Fr> x = arbitrary_inputs(vk);
  for (const Degenerate& d : degenerate_keys()) {
    SCOPED_TRACE(d.name);
    EXPECT_FALSE(verify(pvk, d.forge(vk, x), x));
  }
}

TEST(InsecureKey, AnUnboundPublicInputIsRefused) {
  VerifyingKey vk = honest_key().vk;
  vk.ic[2] = G1Affine::identity();
  const auto problem = verifying_key_problem(vk);
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("public input 2 is not bound"), std::string::npos) << *problem;
}

}  // namespace
}  // namespace zkpipe::groth16
