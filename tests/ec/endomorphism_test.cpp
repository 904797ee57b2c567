#include "ec/endomorphism.hpp"

#include <gtest/gtest.h>

#include "ec/subgroup.hpp"
#include "ec_test_util.hpp"

namespace zkpipe::ec {
namespace {

TEST(Endomorphism, BetaIsAPrimitiveCubeRootOfUnity) {
  EXPECT_FALSE(kBeta.is_one());
  EXPECT_TRUE((kBeta.square() * kBeta).is_one());
}

TEST(Endomorphism, PhiIsMultiplicationByMinusSeedSquaredOnG1) {
  test::Rng rng(41);
  for (int i = 0; i < 3; ++i) {
    auto p = test::random_subgroup_point<G1Curve>(rng);
    auto u2p = mul_double_and_add(p, Decomposition<G1Curve>::kBase);
    EXPECT_EQ(phi(p), -u2p);
    EXPECT_EQ(Jacobian<G1Curve>::from_affine(phi(p.to_affine())), -u2p);
    EXPECT_EQ(phi(Projective<G1Curve>::from_jacobian(p)).to_jacobian(), -u2p);
  }
}

TEST(Endomorphism, PsiIsMultiplicationBySeedOnG2) {
  test::Rng rng(42);
  for (int i = 0; i < 3; ++i) {
    auto p = test::random_subgroup_point<G2Curve>(rng);
    auto up = mul_by_seed(p);
    EXPECT_EQ(psi(p), up);
    EXPECT_EQ(Jacobian<G2Curve>::from_affine(psi(p.to_affine())), up);
    EXPECT_EQ(psi(Projective<G2Curve>::from_jacobian(p)).to_jacobian(), up);
  }
}

// psi is an endomorphism of the whole twist group, not only of G2 (cofactor clearing
// relies on that): it maps curve points to curve points and commutes with addition.
TEST(Endomorphism, PsiIsAGroupHomomorphismOnTheWholeTwist) {
  test::Rng rng(43);
  auto p = test::random_curve_point<G2Curve>(rng);
  auto q = test::random_curve_point<G2Curve>(rng);
  EXPECT_TRUE(psi(p).is_on_curve());
  auto jp = Jacobian<G2Curve>::from_affine(p);
  auto jq = Jacobian<G2Curve>::from_affine(q);
  EXPECT_EQ(psi(jp + jq), psi(jp) + psi(jq));
}

}  // namespace
}  // namespace zkpipe::ec
