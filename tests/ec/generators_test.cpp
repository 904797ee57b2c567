#include "ec/generators.hpp"

#include <gtest/gtest.h>

#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ec_test_util.hpp"

namespace zkpipe::ec {
namespace {

template <class Curve>
class GeneratorTest : public ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(GeneratorTest, Curves);

TYPED_TEST(GeneratorTest, OnCurveOfOrderR) {
  const auto& g = test::generator<TypeParam>();
  EXPECT_FALSE(g.is_identity());
  EXPECT_TRUE(g.is_on_curve());
  EXPECT_TRUE(test::in_subgroup_by_order(g));
  // r is prime, so [r]G = O with G != O means G has order exactly r.
  EXPECT_FALSE(mul_double_and_add(Jacobian<TypeParam>::from_affine(g), ff::Limbs<1>{1}).is_identity());
}

// r = u^4 - u^2 + 1 with u = -kSeedAbs.
TEST(GroupOrder, MatchesTheSeed) {
  ff::Limbs<4> u2{};
  u2[0] = static_cast<ff::u64>(static_cast<ff::u128>(kSeedAbs) * kSeedAbs);
  u2[1] = static_cast<ff::u64>((static_cast<ff::u128>(kSeedAbs) * kSeedAbs) >> 64);
  ff::Limbs<4> u4{};
  // u4 = u2 * u2 by schoolbook multiplication of the two low limbs.
  for (std::size_t i = 0; i < 2; ++i) {
    ff::u64 carry = 0;
    for (std::size_t j = 0; j < 2; ++j) u4[i + j] = ff::mul_add(u2[i], u2[j], u4[i + j], carry);
    u4[i + 2] = carry;
  }
  ff::Limbs<4> r{};
  ff::limbs_sub(r, u4, u2);
  ff::limbs_add(r, r, ff::Limbs<4>{1, 0, 0, 0});
  EXPECT_EQ(r, kGroupOrder);
}

// The whole group E(Fp) has order h1 * r: [h1]([r]P) = O for every curve point.
TEST(Cofactor, G1AnnihilatesTheCurveGroupWithR) {
  test::Rng rng(11);
  for (int i = 0; i < 3; ++i) {
    Affine<G1Curve> p = test::random_curve_point<G1Curve>(rng);
    auto rp = mul_double_and_add(Jacobian<G1Curve>::from_affine(p), kGroupOrder);
    EXPECT_FALSE(rp.is_identity());  // a random point is outside G1
    EXPECT_TRUE(mul_double_and_add(rp, kG1Cofactor).is_identity());
  }
}

TEST(Cofactor, G2AnnihilatesTheTwistGroupWithR) {
  test::Rng rng(12);
  for (int i = 0; i < 2; ++i) {
    Affine<G2Curve> p = test::random_curve_point<G2Curve>(rng);
    auto rp = mul_double_and_add(Jacobian<G2Curve>::from_affine(p), kGroupOrder);
    EXPECT_FALSE(rp.is_identity());
    EXPECT_TRUE(mul_double_and_add(rp, kG2Cofactor).is_identity());
  }
}

}  // namespace
}  // namespace zkpipe::ec
