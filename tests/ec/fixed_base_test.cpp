#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ec/fixed_base.hpp"
#include "ec/generators.hpp"
#include "ec/scalar_mul.hpp"

namespace zkpipe::ec {
namespace {

template <class Curve, unsigned WindowBits = 8>
void check_fixed_base(const Affine<Curve>& base) {
  FixedBaseTable<Curve, WindowBits> table(base);
  std::mt19937_64 rng(3);
  // Digits at a window's edges: 255, 256 for 8-bit windows, 65535, 65536 for 16-bit ones.
  std::vector<ff::Fr> scalars = {ff::Fr::zero(),          ff::Fr::one(),           -ff::Fr::one(),
                                 ff::Fr::from_u64(255),   ff::Fr::from_u64(256),   ff::Fr::from_u64(65535),
                                 ff::Fr::from_u64(65536), ff::Fr::from_u64(~0ull), -ff::Fr::from_u64(65536)};
  for (int i = 0; i < 40; ++i) scalars.push_back(ff::Fr::random(rng));
  std::vector<Affine<Curve>> many = table.mul_many(scalars);
  ASSERT_EQ(many.size(), scalars.size());
  for (std::size_t i = 0; i < scalars.size(); ++i) {
    Jacobian<Curve> expected = mul_double_and_add(Jacobian<Curve>::from_affine(base), scalars[i].to_canonical());
    EXPECT_EQ(table.mul(scalars[i]), expected) << "scalar " << i;
    EXPECT_EQ(many[i], expected.to_affine()) << "scalar " << i;
  }
}

TEST(FixedBase, G1MatchesDoubleAndAdd) { check_fixed_base<G1Curve>(kG1Generator); }
TEST(FixedBase, G2MatchesDoubleAndAdd) { check_fixed_base<G2Curve>(kG2Generator); }
// The host setup's tables (groth16/setup.cpp, from about 4 M points).
TEST(FixedBase, SixteenBitWindowsMatchDoubleAndAdd) {
  check_fixed_base<G1Curve, 16>(kG1Generator);
  check_fixed_base<G2Curve, 16>(kG2Generator);
}

// More products than one chunk of mul_many (1,024), with and without the eight-lane
// additions: each equals the table's one-by-one product.
template <class Curve>
void check_batched_products(const Affine<Curve>& base) {
  FixedBaseTable<Curve> table(base);
  std::mt19937_64 rng(11);
  std::vector<ff::Fr> scalars = {ff::Fr::one(), -ff::Fr::one(), ff::Fr::zero(), ff::Fr::from_u64(256)};
  while (scalars.size() < 2500) scalars.push_back(ff::Fr::random(rng));
  scalars[1500] = ff::Fr::zero();
  scalars[1501] = -ff::Fr::from_u64(256);
  for (const bool use_lanes : {true, false}) {
    std::vector<Affine<Curve>> out(scalars.size());
    table.mul_many(scalars, std::span<Affine<Curve>>(out), use_lanes);
    for (std::size_t i = 0; i < scalars.size(); ++i) {
      ASSERT_EQ(out[i], table.mul(scalars[i]).to_affine()) << "scalar " << i << (use_lanes ? ", lanes" : "");
    }
  }
}

TEST(FixedBase, BatchedProductsEqualOneByOneProducts) {
  check_batched_products<G1Curve>(kG1Generator);
  check_batched_products<G2Curve>(kG2Generator);
}

}  // namespace
}  // namespace zkpipe::ec
