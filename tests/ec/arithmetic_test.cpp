// Jacobian, XYZZ and projective arithmetic against each other and against a plain
// affine chord-and-tangent reference, including the special cases (doubling through
// addition, P + (-P), the identity on either side).
#include <gtest/gtest.h>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ec/projective.hpp"
#include "ec/xyzz.hpp"
#include "ec_test_util.hpp"

namespace zkpipe::ec {
namespace {

// The textbook affine group law, as an independent reference.
template <class Curve>
Affine<Curve> affine_add(const Affine<Curve>& p, const Affine<Curve>& q) {
  using Field = typename Curve::Field;
  if (p.infinity) return q;
  if (q.infinity) return p;
  Field slope;
  if (p.x == q.x) {
    if (!(p.y == q.y) || p.y.is_zero()) return Affine<Curve>::identity();
    Field xx = p.x.square();
    slope = (xx.dbl() + xx) * p.y.dbl().inverse();
  } else {
    slope = (q.y - p.y) * (q.x - p.x).inverse();
  }
  Field x = slope.square() - p.x - q.x;
  return Affine<Curve>::from_xy(x, slope * (p.x - x) - p.y);
}

template <class Curve>
class ArithmeticTest : public ::testing::Test {
 protected:
  using J = Jacobian<Curve>;
  using X = Xyzz<Curve>;
  using P = Projective<Curve>;
  using A = Affine<Curve>;

  // A point with Z != 1 (the result of a few operations), so that the formulas see
  // general representatives.
  J random_jacobian() { return test::random_subgroup_point<Curve>(rng_); }

  static X to_xyzz(const J& p) {
    if (p.is_identity()) return X::identity();
    typename Curve::Field zz = p.Z.square();
    return {p.X, p.Y, zz, zz * p.Z};
  }

  test::Rng rng_{21};
};

using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(ArithmeticTest, Curves);

TYPED_TEST(ArithmeticTest, AdditionAgreesAcrossRepresentations) {
  using J = typename TestFixture::J;
  using X = typename TestFixture::X;
  using P = typename TestFixture::P;
  for (int i = 0; i < 4; ++i) {
    J p = this->random_jacobian();
    J q = this->random_jacobian();
    auto pa = p.to_affine();
    auto qa = q.to_affine();
    auto expected = affine_add(pa, qa);
    EXPECT_TRUE(expected.is_on_curve());
    EXPECT_EQ((p + q).to_affine(), expected);
    EXPECT_EQ((p + qa).to_affine(), expected);
    EXPECT_EQ((this->to_xyzz(p) + qa).to_affine(), expected);
    EXPECT_EQ((this->to_xyzz(p) + this->to_xyzz(q)).to_affine(), expected);
    EXPECT_EQ((P::from_jacobian(p) + P::from_jacobian(q)).to_jacobian().to_affine(), expected);
    EXPECT_EQ((P::from_jacobian(p) + P::from_affine(qa)).to_jacobian().to_affine(), expected);
    EXPECT_EQ((X::from_affine(pa) + qa).to_jacobian().to_affine(), expected);
    EXPECT_EQ((p - q), p + (-q));
  }
}

TYPED_TEST(ArithmeticTest, DoublingAgreesAndAdditionFallsBackToIt) {
  using J = typename TestFixture::J;
  using X = typename TestFixture::X;
  using P = typename TestFixture::P;
  for (int i = 0; i < 4; ++i) {
    J p = this->random_jacobian();
    auto pa = p.to_affine();
    auto expected = affine_add(pa, pa);
    EXPECT_EQ(p.dbl().to_affine(), expected);
    EXPECT_EQ((p + p).to_affine(), expected);
    EXPECT_EQ((p + pa).to_affine(), expected);
    EXPECT_EQ(this->to_xyzz(p).dbl().to_affine(), expected);
    EXPECT_EQ((this->to_xyzz(p) + pa).to_affine(), expected);
    EXPECT_EQ((this->to_xyzz(p) + this->to_xyzz(p)).to_affine(), expected);
    EXPECT_EQ(P::from_jacobian(p).dbl().to_jacobian().to_affine(), expected);
    EXPECT_EQ((P::from_jacobian(p) + P::from_jacobian(p)).to_jacobian().to_affine(), expected);
    EXPECT_EQ((X::from_affine(pa) + pa).to_affine(), expected);
  }
}

TYPED_TEST(ArithmeticTest, PointPlusItsNegationIsTheIdentity) {
  using J = typename TestFixture::J;
  using P = typename TestFixture::P;
  J p = this->random_jacobian();
  auto pa = p.to_affine();
  EXPECT_TRUE((p + (-p)).is_identity());
  EXPECT_TRUE((p + (-pa)).is_identity());
  EXPECT_TRUE((this->to_xyzz(p) + (-pa)).is_identity());
  EXPECT_TRUE((this->to_xyzz(p) + (-this->to_xyzz(p))).is_identity());
  EXPECT_TRUE((P::from_jacobian(p) + (-P::from_jacobian(p))).is_identity());
  EXPECT_TRUE((P::from_jacobian(p) - P::from_jacobian(p)).to_jacobian().is_identity());
  EXPECT_TRUE(affine_add(pa, -pa).is_identity());
}

TYPED_TEST(ArithmeticTest, IdentityIsNeutralOnBothSides) {
  using J = typename TestFixture::J;
  using X = typename TestFixture::X;
  using P = typename TestFixture::P;
  using A = typename TestFixture::A;
  J p = this->random_jacobian();
  auto pa = p.to_affine();
  EXPECT_EQ(J::identity() + p, p);
  EXPECT_EQ(p + J::identity(), p);
  EXPECT_EQ(p + A::identity(), p);
  EXPECT_EQ((J::identity() + pa).to_affine(), pa);
  EXPECT_TRUE((J::identity() + J::identity()).is_identity());
  EXPECT_TRUE(J::identity().dbl().is_identity());
  EXPECT_TRUE(J::identity().to_affine().is_identity());

  EXPECT_EQ((X::identity() + pa).to_affine(), pa);
  EXPECT_EQ((this->to_xyzz(p) + A::identity()).to_affine(), pa);
  EXPECT_EQ((X::identity() + this->to_xyzz(p)).to_affine(), pa);
  EXPECT_EQ((this->to_xyzz(p) + X::identity()).to_affine(), pa);
  EXPECT_TRUE(X::identity().dbl().is_identity());
  EXPECT_TRUE(X::identity().to_jacobian().is_identity());

  // The complete formulas need no special case: the identity is an ordinary input.
  EXPECT_EQ((P::identity() + P::from_jacobian(p)).to_jacobian().to_affine(), pa);
  EXPECT_EQ((P::from_jacobian(p) + P::identity()).to_jacobian().to_affine(), pa);
  EXPECT_TRUE((P::identity() + P::identity()).is_identity());
  EXPECT_TRUE(P::identity().dbl().is_identity());
  EXPECT_TRUE(P::from_jacobian(J::identity()).is_identity());
  EXPECT_TRUE(P::from_affine(A::identity()).to_jacobian().is_identity());
}

TYPED_TEST(ArithmeticTest, ResultsStayOnTheCurve) {
  using J = typename TestFixture::J;
  J p = this->random_jacobian();
  J q = this->random_jacobian();
  EXPECT_TRUE((p + q).to_affine().is_on_curve());
  EXPECT_TRUE(p.dbl().to_affine().is_on_curve());
  EXPECT_TRUE((this->to_xyzz(p) + this->to_xyzz(q)).to_affine().is_on_curve());
  EXPECT_FALSE(Affine<TypeParam>::from_xy(p.to_affine().x, q.to_affine().y).is_on_curve());
}

}  // namespace
}  // namespace zkpipe::ec
