#include "ec/batch_normalize.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "ec_test_util.hpp"

namespace zkpipe::ec {
namespace {

// n points: multiples of one random point (cheap to make), with identities mixed in.
template <class Curve>
std::vector<Jacobian<Curve>> sample_points(std::size_t n, test::Rng& rng) {
  std::vector<Jacobian<Curve>> points;
  auto step = test::random_subgroup_point<Curve>(rng);
  auto acc = step;
  for (std::size_t i = 0; i < n; ++i) {
    bool identity = i % 7 == 3 || i == 0 || i + 1 == n;
    points.push_back(identity ? Jacobian<Curve>::identity() : acc);
    acc += step;
  }
  return points;
}

template <class Curve>
Xyzz<Curve> to_xyzz(const Jacobian<Curve>& p) {
  if (p.is_identity()) return Xyzz<Curve>::identity();
  auto zz = p.Z.square();
  return {p.X, p.Y, zz, zz * p.Z};
}

template <class Curve>
class BatchNormalizeTest : public ::testing::Test {
 protected:
  void check(std::size_t n) {
    auto points = sample_points<Curve>(n, rng_);
    auto affine = batch_normalize(points);
    ASSERT_EQ(affine.size(), n);
    std::vector<Xyzz<Curve>> xyzz;
    for (const auto& p : points) xyzz.push_back(to_xyzz(p));
    std::vector<Affine<Curve>> from_xyzz(n);
    batch_normalize(std::span<const Xyzz<Curve>>(xyzz), std::span<Affine<Curve>>(from_xyzz));
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(affine[i].is_identity(), points[i].is_identity()) << i;
      EXPECT_EQ(affine[i], points[i].to_affine()) << i;
      EXPECT_EQ(from_xyzz[i], affine[i]) << i;
      EXPECT_TRUE(affine[i].is_on_curve()) << i;
    }
  }

  test::Rng rng_{61};
};

using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(BatchNormalizeTest, Curves);

TYPED_TEST(BatchNormalizeTest, SmallArrays) {
  for (std::size_t n : {0u, 1u, 2u, 5u, 33u}) this->check(n);
}

// More than one chunk, so the parallel path (and a partial last chunk) runs.
TYPED_TEST(BatchNormalizeTest, ParallelChunks) { this->check(2 * kBatchNormalizeChunk + 17); }

TEST(BatchNormalize, AllIdentities) {
  std::vector<Jacobian<G1Curve>> points(10, Jacobian<G1Curve>::identity());
  for (const auto& a : batch_normalize(points)) EXPECT_TRUE(a.is_identity());
}

TEST(BatchNormalize, SizeMismatchThrows) {
  std::vector<Jacobian<G1Curve>> points(3);
  std::vector<Affine<G1Curve>> out(2);
  EXPECT_THROW(batch_normalize(std::span<const Jacobian<G1Curve>>(points),
                               std::span<Affine<G1Curve>>(out)),
               std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::ec
