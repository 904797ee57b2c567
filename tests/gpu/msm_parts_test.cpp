// DeviceMsm's sums in parts (begin_parts, add_part, end_parts) against ec::msm over
// all the terms, for both groups: the buckets and the ones' partials carried from
// part to part must give the same point as one sum, whatever the parts hold.
#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "ec/msm/msm.hpp"
#include "ec/msm/testing.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm.hpp"
#include "gpu_test_env.hpp"

namespace zkpipe::gpu {
namespace {

using ff::Fr;

template <class Curve>
class GpuMsmParts : public ::testing::Test {
 protected:
  using Affine = ec::Affine<Curve>;
  using Jacobian = ec::Jacobian<Curve>;

  void SetUp() override {
    ZKPIPE_REQUIRE_GPU();
    staging_ = std::make_unique<PinnedStaging>(1 << 20);
  }

  // The sum of points·scalars in parts cut at `cuts` (ascending, within n; equal
  // cuts make empty parts).
  Jacobian in_parts(const std::vector<Affine>& points, const std::vector<Fr>& scalars,
                    const std::vector<std::size_t>& cuts, unsigned window_bits = 0) {
    const DeviceBases<Curve> bases(points, *staging_, nullptr);
    DeviceBuffer<Fr> d_scalars(scalars.size());
    check(cudaMemcpy(d_scalars.data(), scalars.data(), scalars.size() * sizeof(Fr), cudaMemcpyHostToDevice),
          "upload scalars");
    msm_.begin_parts<Curve>(window_bits);
    std::size_t first = 0;
    std::vector<std::size_t> ends = cuts;
    ends.push_back(scalars.size());
    for (const std::size_t end : ends) {
      msm_.add_part(DeviceBasesView<Curve>(bases.data() + first, end - first), d_scalars.data() + first, end - first,
                    nullptr);
      first = end;
    }
    return msm_.end_parts<Curve>(nullptr);
  }

  void expect_matches(const std::vector<Affine>& points, const std::vector<Fr>& scalars,
                      const std::vector<std::size_t>& cuts, unsigned window_bits = 0) {
    EXPECT_EQ(in_parts(points, scalars, cuts, window_bits), ec::msm<Curve>(points, scalars))
        << "n " << scalars.size() << " parts " << cuts.size() + 1 << " window " << window_bits;
  }

  std::unique_ptr<PinnedStaging> staging_;
  DeviceMsm msm_;
};

using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(GpuMsmParts, Curves);

TYPED_TEST(GpuMsmParts, UnevenPartsOfRandomAndWitnessScalars) {
  const std::size_t n = 6000;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 60);
  const std::vector<std::size_t> cuts = {1, 700, 700, 2500, 5999};
  this->expect_matches(points, ec::msm_testing::random_scalars(n, 61), cuts);
  this->expect_matches(points, ec::msm_testing::witness_like_scalars(n, 50, 45, 62), cuts);
  this->expect_matches(points, ec::msm_testing::random_scalars(n, 63), {3000});
}

// The window comes from the first part with terms through the buckets: parts
// before it (only zeros and ones) leave the buckets unfilled, and the parts after
// it take its window even where their own count would pick another.
TYPED_TEST(GpuMsmParts, FirstPartsWithoutGeneralTerms) {
  const std::size_t n = 5000;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 64);
  std::vector<Fr> scalars = ec::msm_testing::random_scalars(n, 65);
  for (std::size_t i = 0; i < 1000; ++i) scalars[i] = i % 3 == 0 ? Fr::one() : Fr::zero();
  for (std::size_t i = 1000; i < 1500; ++i) scalars[i] = Fr::zero();
  this->expect_matches(points, scalars, {1000, 1500, 1510});
  this->expect_matches(points, std::vector<Fr>(n, Fr::zero()), {100, 4000});
  this->expect_matches(points, std::vector<Fr>(n, Fr::one()), {100, 4000});
}

TYPED_TEST(GpuMsmParts, ExplicitWindows) {
  const std::size_t n = 3000;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 66);
  const auto scalars = ec::msm_testing::witness_like_scalars(n, 30, 30, 67);
  for (unsigned c : {2u, 7u, 13u, 16u}) this->expect_matches(points, scalars, {1000, 2000}, c);
}

// A value repeated thousands of times in a later part cuts its bucket into chunks:
// the bucket's first chunk starts from what earlier parts left in it.
TYPED_TEST(GpuMsmParts, SplitBucketsInLaterParts) {
  const std::size_t n = 1 << 14;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 68);
  std::vector<Fr> scalars = ec::msm_testing::random_scalars(n, 69);
  const std::vector<Fr> repeated = ec::msm_testing::random_scalars(2, 70);
  for (std::size_t i = 0; i < n; i += 5) scalars[i] = repeated[(i / 5) % 2];
  for (std::size_t i = 2; i < n; i += 7) scalars[i] = Fr::one();
  this->expect_matches(points, scalars, {n / 4, n / 2});
}

// One DeviceMsm: a sum in parts, then a plain sum, then parts of the other group.
TYPED_TEST(GpuMsmParts, AlternatesWithPlainSums) {
  const std::size_t n = 2000;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 71);
  const auto scalars = ec::msm_testing::witness_like_scalars(n, 40, 40, 72);
  this->expect_matches(points, scalars, {500, 1500});
  const DeviceBases<TypeParam> bases(points, *this->staging_, nullptr);
  DeviceBuffer<Fr> d_scalars(n);
  check(cudaMemcpy(d_scalars.data(), scalars.data(), n * sizeof(Fr), cudaMemcpyHostToDevice), "up");
  EXPECT_EQ(this->msm_.sum(bases, d_scalars.data(), n, nullptr), ec::msm<TypeParam>(points, scalars));
  const auto g1_points = ec::msm_testing::random_points<ec::G1Curve>(n, 73);
  const DeviceBases<ec::G1Curve> g1_bases(g1_points, *this->staging_, nullptr);
  this->msm_.template begin_parts<ec::G1Curve>();
  this->msm_.add_part(DeviceBasesView<ec::G1Curve>(g1_bases.data(), 800), d_scalars.data(), 800, nullptr);
  this->msm_.add_part(DeviceBasesView<ec::G1Curve>(g1_bases.data() + 800, n - 800), d_scalars.data() + 800, n - 800,
                      nullptr);
  EXPECT_EQ(this->msm_.template end_parts<ec::G1Curve>(nullptr), ec::msm<ec::G1Curve>(g1_points, scalars));
  this->expect_matches(points, scalars, {1});
}

TYPED_TEST(GpuMsmParts, PartsOutOfOrderAreRefused) {
  const auto points = ec::msm_testing::random_points<TypeParam>(10, 74);
  const DeviceBases<TypeParam> bases(points, *this->staging_, nullptr);
  DeviceBuffer<Fr> d_scalars(10);
  EXPECT_THROW(this->msm_.add_part(DeviceBasesView<TypeParam>(bases), d_scalars.data(), 10, nullptr),
               std::logic_error);
  EXPECT_THROW(this->msm_.template end_parts<TypeParam>(nullptr), std::logic_error);
  using Other = std::conditional_t<std::is_same_v<TypeParam, ec::G1Curve>, ec::G2Curve, ec::G1Curve>;
  this->msm_.template begin_parts<Other>();
  EXPECT_THROW(this->msm_.add_part(DeviceBasesView<TypeParam>(bases), d_scalars.data(), 10, nullptr),
               std::logic_error);
  this->msm_.template begin_parts<TypeParam>();
  EXPECT_THROW(this->msm_.add_part(DeviceBasesView<TypeParam>(bases), d_scalars.data(), 11, nullptr),
               std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::gpu
