// The endomorphism subgroup checks against the definition [r]P = O, and cofactor
// clearing.
#include "ec/subgroup.hpp"

#include <gtest/gtest.h>

#include "ec_test_util.hpp"

namespace zkpipe::ec {
namespace {

template <class Curve>
class SubgroupTest : public ::testing::Test {
 protected:
  test::Rng rng_{51};
};

using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(SubgroupTest, Curves);

TYPED_TEST(SubgroupTest, AcceptsSubgroupPoints) {
  EXPECT_TRUE(is_in_subgroup(test::generator<TypeParam>()));
  EXPECT_TRUE(is_in_subgroup(Affine<TypeParam>::identity()));
  for (int i = 0; i < 3; ++i) {
    auto p = test::random_subgroup_point<TypeParam>(this->rng_).to_affine();
    EXPECT_TRUE(test::in_subgroup_by_order(p));
    EXPECT_TRUE(is_in_subgroup(p));
  }
}

TYPED_TEST(SubgroupTest, RejectsPointsOutsideTheSubgroup) {
  for (int i = 0; i < 4; ++i) {
    auto p = test::random_curve_point<TypeParam>(this->rng_);
    ASSERT_TRUE(p.is_on_curve());
    EXPECT_FALSE(test::in_subgroup_by_order(p));
    EXPECT_FALSE(is_in_subgroup(p));
  }
}

// A subgroup point plus a point of small order (in the cofactor part) must fail.
TYPED_TEST(SubgroupTest, RejectsSubgroupPointPlusTorsion) {
  auto outside = Jacobian<TypeParam>::from_affine(test::random_curve_point<TypeParam>(this->rng_));
  // [r]Q has order dividing the cofactor: pure torsion, not the identity.
  auto torsion = mul_double_and_add(outside, kGroupOrder);
  ASSERT_FALSE(torsion.is_identity());
  auto p = (test::random_subgroup_point<TypeParam>(this->rng_) + torsion).to_affine();
  EXPECT_FALSE(test::in_subgroup_by_order(p));
  EXPECT_FALSE(is_in_subgroup(p));
  EXPECT_FALSE(is_in_subgroup(torsion.to_affine()));
}

TYPED_TEST(SubgroupTest, ClearingTheCofactorLandsInTheSubgroup) {
  for (int i = 0; i < 2; ++i) {
    auto p = test::random_curve_point<TypeParam>(this->rng_);
    auto cleared = clear_cofactor(Jacobian<TypeParam>::from_affine(p)).to_affine();
    EXPECT_FALSE(cleared.is_identity());
    EXPECT_TRUE(cleared.is_on_curve());
    EXPECT_TRUE(test::in_subgroup_by_order(cleared));
    EXPECT_TRUE(is_in_subgroup(cleared));
  }
}

}  // namespace
}  // namespace zkpipe::ec
