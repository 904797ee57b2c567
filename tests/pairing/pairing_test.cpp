// The optimal ate pairing: a published value of e(G1, G2), bilinearity,
// non-degeneracy, the order of GT, products of pairings and prepared G2 points.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <utility>
#include <vector>

#include "ec/generators.hpp"
#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/fr.hpp"
#include "pairing/pairing.hpp"

namespace zkpipe::pairing {
namespace {

using ff::Fp;
using ff::Fp12;
using ff::Fp2;
using ff::Fp6;
using ff::Fr;

template <class Curve>
ec::Affine<Curve> scalar_mul(const ec::Affine<Curve>& p, const Fr& k) {
  return ec::mul_double_and_add(ec::Jacobian<Curve>::from_affine(p), k.to_canonical()).to_affine();
}

// e(G1, G2) as published by zcash's bls12_381 (tests/mod.rs, `test_pairing_result_against_relic`),
// limbs in Montgomery form with R = 2^384, the same representation as ours.
Fp12 published_generator_pairing() {
  auto fp = [](ff::Limbs<6> mont) { return Fp::from_mont(mont); };
  return Fp12{
      Fp6{Fp2{fp({0x1972e433a01f85c5, 0x97d32b76fd772538, 0xc8ce546fc96bcdf9, 0xcef63e7366d40614,
                  0xa611342781843780, 0x13f3448a3fc6d825}),
              fp({0xd26331b02e9d6995, 0x9d68a482f7797e7d, 0x9c9b29248d39ea92, 0xf4801ca2e13107aa,
                  0xa16c0732bdbcb066, 0x083ca4afba360478})},
          Fp2{fp({0x59e261db0916b641, 0x2716b6f4b23e960d, 0xc8e55b10a0bd9c45, 0x0bdb0bd99c4deda8,
                  0x8cf89ebf57fdaac5, 0x12d6b7929e777a5e}),
              fp({0x5fc85188b0e15f35, 0x34a06e3a8f096365, 0xdb3126a6e02ad62c, 0xfc6f5aa97d9a990b,
                  0xa12f55f5eb89c210, 0x1723703a926f8889})},
          Fp2{fp({0x93588f2971828778, 0x43f65b8611ab7585, 0x3183aaf5ec279fdf, 0xfa73d7e18ac99df6,
                  0x64e176a6a64c99b0, 0x179fa78c58388f1f}),
              fp({0x672a0a11ca2aef12, 0x0d11b9b52aa3f16b, 0xa44412d0699d056e, 0xc01d0177221a5ba5,
                  0x66e0cede6c735529, 0x05f5a71e9fddc339})}},
      Fp6{Fp2{fp({0xd30a88a1b062c679, 0x5ac56a5d35fc8304, 0xd0c834a6a81f290d, 0xcd5430c2da3707c7,
                  0xf0c27ff780500af0, 0x09245da6e2d72eae}),
              fp({0x9f2e0676791b5156, 0xe2d1c8234918fe13, 0x4c9e459f3c561bf4, 0xa3e85e53b9d3e3c1,
                  0x820a121e21a70020, 0x15af618341c59acc})},
          Fp2{fp({0x7c95658c24993ab1, 0x73eb38721ca886b9, 0x5256d749477434bc, 0x8ba41902ea504a8b,
                  0x04a3d3f80c86ce6d, 0x18a64a87fb686eaa}),
              fp({0xbb83e71bb920cf26, 0x2a5277ac92a73945, 0xfc0ee59f94f046a0, 0x7158cdf3786058f7,
                  0x7cc1061b82f945f6, 0x03f847aa9fdbe567})},
          Fp2{fp({0x8078dba56134e657, 0x1cd7ec9a43998a6e, 0xb1aa599a1a993766, 0xc9a0f62f0842ee44,
                  0x8e159be3b605dffa, 0x0c86ba0d4af13fc2}),
              fp({0xe80ff2a06a52ffb1, 0x7694ca48721a906c, 0x7583183e03b08514, 0xf567afdd40cee4e2,
                  0x9a6d96d2e526a5fc, 0x197e9f49861f2242})}}};
}

class PairingTest : public ::testing::Test {
 protected:
  std::mt19937_64 rng{0x9a121};
  G1Affine g1 = ec::kG1Generator;
  G2Affine g2 = ec::kG2Generator;
};

TEST_F(PairingTest, GeneratorsAreOnTheCurves) {
  EXPECT_TRUE(g1.is_on_curve());
  EXPECT_TRUE(g2.is_on_curve());
}

TEST_F(PairingTest, MatchesPublishedValue) { EXPECT_EQ(pairing(g1, g2), published_generator_pairing()); }

TEST_F(PairingTest, NonDegenerateAndOfOrderR) {
  Fp12 e = pairing(g1, g2);
  EXPECT_FALSE(e.is_one());
  EXPECT_TRUE(e.pow(Fr::kModulus).is_one());
}

TEST_F(PairingTest, Bilinear) {
  for (int i = 0; i < 2; ++i) {
    Fr a = Fr::random(rng);
    Fr b = Fr::random(rng);
    Fp12 lhs = pairing(scalar_mul(g1, a), scalar_mul(g2, b));
    EXPECT_EQ(lhs, pairing(g1, g2).pow((a * b).to_canonical()));
    EXPECT_EQ(lhs, pairing(scalar_mul(g1, a * b), g2));
  }
}

TEST_F(PairingTest, NegationGivesInverse) {
  G1Affine p = scalar_mul(g1, Fr::random(rng));
  G2Affine q = scalar_mul(g2, Fr::random(rng));
  EXPECT_TRUE((pairing(p, -q) * pairing(p, q)).is_one());
  EXPECT_EQ(pairing(-p, q), pairing(p, q).conjugate());
}

TEST_F(PairingTest, IdentityGivesOne) {
  EXPECT_TRUE(pairing(G1Affine::identity(), g2).is_one());
  EXPECT_TRUE(pairing(g1, G2Affine::identity()).is_one());
  EXPECT_TRUE(pairing(G1Affine::identity(), G2Affine::identity()).is_one());
  EXPECT_TRUE(multi_pairing(std::span<const std::pair<G1Affine, G2Affine>>{}).is_one());
}

TEST_F(PairingTest, MultiPairingIsProductOfPairings) {
  std::vector<std::pair<G1Affine, G2Affine>> pairs;
  Fp12 product = Fp12::one();
  for (int i = 0; i < 3; ++i) {
    pairs.emplace_back(scalar_mul(g1, Fr::random(rng)), scalar_mul(g2, Fr::random(rng)));
    product *= pairing(pairs.back().first, pairs.back().second);
  }
  pairs.emplace_back(G1Affine::identity(), g2);  // contributes 1
  pairs.emplace_back(g1, G2Affine::identity());
  EXPECT_EQ(multi_pairing(pairs), product);
}

TEST_F(PairingTest, Groth16ShapedCheckCancels) {
  // e(aP, Q)·e(-P, aQ) = 1, a product of pairings that must vanish.
  Fr a = Fr::random(rng);
  std::array<std::pair<G1Affine, G2Affine>, 2> pairs{
      std::pair{scalar_mul(g1, a), g2}, std::pair{-g1, scalar_mul(g2, a)}};
  EXPECT_TRUE(multi_pairing(pairs).is_one());
}

TEST_F(PairingTest, PreparedEqualsUnprepared) {
  G1Affine p0 = scalar_mul(g1, Fr::random(rng));
  G1Affine p1 = scalar_mul(g1, Fr::random(rng));
  G2Affine q0 = scalar_mul(g2, Fr::random(rng));
  G2Affine q1 = scalar_mul(g2, Fr::random(rng));
  const G2Prepared prep0(q0);
  const G2Prepared prep1(q1);
  std::array<PreparedPair, 2> terms{PreparedPair{p0, &prep0}, PreparedPair{p1, &prep1}};
  std::array<std::pair<G1Affine, G2Affine>, 2> pairs{std::pair{p0, q0}, std::pair{p1, q1}};
  EXPECT_EQ(multi_pairing(terms), multi_pairing(pairs));
  // The same prepared point serves a second G1 point.
  std::array<PreparedPair, 1> reuse{PreparedPair{p1, &prep0}};
  EXPECT_EQ(multi_pairing(reuse), pairing(p1, q0));
  EXPECT_TRUE(G2Prepared(G2Affine::identity()).is_identity());
}

TEST_F(PairingTest, FinalExponentiationLandsInGT) {
  Fp12 f = Fp12::random(rng);
  Fp12 e = final_exponentiation(f);
  EXPECT_TRUE(e.pow(Fr::kModulus).is_one());
  EXPECT_FALSE(e.is_one());
}

}  // namespace
}  // namespace zkpipe::pairing
