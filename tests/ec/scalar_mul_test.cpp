// The GLV/GLS variable-time and the constant-time scalar multiplications against
// plain double-and-add, on random and edge-case scalars.
#include "ec/scalar_mul.hpp"

#include <gtest/gtest.h>

#include "ec/scalar_decomposition.hpp"
#include "ec_test_util.hpp"

namespace zkpipe::ec {
namespace {

using ff::Fr;

ff::Limbs<4> r_minus(ff::u64 k) {
  ff::Limbs<4> out{};
  ff::limbs_sub(out, kGroupOrder, ff::Limbs<4>{k, 0, 0, 0});
  return out;
}

template <class Curve>
class ScalarMulTest : public ::testing::Test {
 protected:
  void expect_all_agree(const Jacobian<Curve>& p, const Fr& k) {
    Jacobian<Curve> expected = mul_double_and_add(p, k.to_canonical());
    EXPECT_EQ(mul_vartime(p, k), expected);
    EXPECT_EQ(mul_ct(p, k), expected);
    EXPECT_EQ(mul_vartime(p.to_affine(), k), expected);
    EXPECT_EQ(mul_ct(p.to_affine(), k), expected);
  }

  test::Rng rng_{31};
};

using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(ScalarMulTest, Curves);

TYPED_TEST(ScalarMulTest, RandomScalarsAgreeWithDoubleAndAdd) {
  for (int i = 0; i < 6; ++i) {
    auto p = test::random_subgroup_point<TypeParam>(this->rng_);
    this->expect_all_agree(p, Fr::random(this->rng_));
  }
}

TYPED_TEST(ScalarMulTest, EdgeScalars) {
  auto p = test::random_subgroup_point<TypeParam>(this->rng_);
  EXPECT_TRUE(mul_vartime(p, Fr::zero()).is_identity());
  EXPECT_TRUE(mul_ct(p, Fr::zero()).is_identity());
  EXPECT_EQ(mul_vartime(p, Fr::one()), p);
  EXPECT_EQ(mul_ct(p, Fr::one()), p);
  // r - 1 = -1 mod r.
  auto minus_one = *Fr::from_canonical(r_minus(1));
  EXPECT_EQ(mul_vartime(p, minus_one), -p);
  EXPECT_EQ(mul_ct(p, minus_one), -p);
  for (ff::u64 small : {2u, 3u, 15u, 16u, 17u, 31u, 32u, 33u}) {
    this->expect_all_agree(p, Fr::from_u64(small));
    this->expect_all_agree(p, *Fr::from_canonical(r_minus(small)));
  }
  // Scalars that are exact powers of the decomposition base (one nonzero digit).
  using D = Decomposition<TypeParam>;
  ff::Limbs<4> base{D::kBase[0], D::kBase[1], 0, 0};
  this->expect_all_agree(p, *Fr::from_canonical(base));
  this->expect_all_agree(p, *Fr::from_canonical(r_minus(0xffff)));
}

TYPED_TEST(ScalarMulTest, IdentityPointGivesIdentity) {
  Fr k = Fr::random(this->rng_);
  EXPECT_TRUE(mul_vartime(Jacobian<TypeParam>::identity(), k).is_identity());
  EXPECT_TRUE(mul_ct(Jacobian<TypeParam>::identity(), k).is_identity());
  EXPECT_TRUE(mul_vartime(Affine<TypeParam>::identity(), k).is_identity());
}

TYPED_TEST(ScalarMulTest, OrderTimesGeneratorIsIdentity) {
  auto g = Jacobian<TypeParam>::from_affine(test::generator<TypeParam>());
  // [r - 1]G + G = [r]G = O, through the fast paths.
  auto minus_one = *Fr::from_canonical(r_minus(1));
  EXPECT_TRUE((mul_vartime(g, minus_one) + g).is_identity());
  EXPECT_TRUE((mul_ct(g, minus_one) + g).is_identity());
  EXPECT_FALSE(mul_ct(g, Fr::from_u64(5)).is_identity());
}

TEST(ScalarDecomposition, DigitsRecomposeToTheScalar) {
  test::Rng rng(32);
  for (int i = 0; i < 20; ++i) {
    ff::Limbs<4> k = Fr::random(rng).to_canonical();
    auto g1 = decompose_scalar<G1Curve>(k);
    // k = k0 + k1 * u^2, checked with GMP-free limb arithmetic: k1 * u^2 via u128 parts.
    DivMod qr = divmod_ct(k, Decomposition<G1Curve>::kBase);
    EXPECT_EQ(g1[0], qr.remainder);
    EXPECT_EQ((ff::Limbs<4>{g1[1][0], g1[1][1], 0, 0}), qr.quotient);
    auto g2 = decompose_scalar<G2Curve>(k);
    for (const auto& d : g2) EXPECT_EQ(d[1], 0u);
    // Horner: ((d3 b + d2) b + d1) b + d0 with b = |u|, in 4 limbs.
    ff::Limbs<4> acc{};
    for (std::size_t j = 4; j-- > 0;) {
      ff::u64 carry = 0;
      for (auto& limb : acc) limb = ff::mul_add(limb, kSeedAbs, 0, carry);
      ff::limbs_add(acc, acc, ff::Limbs<4>{g2[j][0], 0, 0, 0});
    }
    EXPECT_EQ(acc, k);
  }
}

TEST(ScalarDecomposition, DivModIsLongDivision) {
  test::Rng rng(33);
  for (int i = 0; i < 50; ++i) {
    ff::Limbs<4> k{rng(), rng(), rng(), rng()};
    ff::Limbs<2> d{rng(), rng() >> (i % 64)};
    if (ff::limbs_is_zero(d)) continue;
    DivMod qr = divmod_ct(k, d);
    EXPECT_TRUE(ff::limbs_less(qr.remainder, d));
    // q * d + rem == k, computed in 6 limbs.
    ff::Limbs<6> prod{};
    for (std::size_t a = 0; a < 4; ++a) {
      ff::u64 carry = 0;
      for (std::size_t b = 0; b < 2; ++b) prod[a + b] = ff::mul_add(qr.quotient[a], d[b], prod[a + b], carry);
      ff::u64 bit = 0;  // add_carry takes a one-bit carry: add the high word as an operand
      prod[a + 2] = ff::add_carry(prod[a + 2], carry, bit);
      for (std::size_t c = a + 3; c < 6; ++c) prod[c] = ff::add_carry(prod[c], 0, bit);
    }
    ff::limbs_add(prod, prod, ff::Limbs<6>{qr.remainder[0], qr.remainder[1], 0, 0, 0, 0});
    EXPECT_EQ(prod, (ff::Limbs<6>{k[0], k[1], k[2], k[3], 0, 0}));
  }
}

}  // namespace
}  // namespace zkpipe::ec
