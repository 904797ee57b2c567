// DeviceMsm's sums in parts (begin_parts, add_part, end_parts) against ec::msm over
// all the terms, for both groups: the buckets and the ones' partials carried from
// part to part must give the same point as one sum, whatever the parts hold.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
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

// Parts of only zeros and ones leave the buckets unfilled; the first part with other
// terms sets their window.
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

// A part far denser than the first needs a wider window than the buckets' (its sort
// would otherwise take more entries than its own sum's): the buckets are summed
// first, then filled again at the new width; sparser parts after it keep that width.
TYPED_TEST(GpuMsmParts, DenserLaterPartsWidenTheWindow) {
  const std::size_t n = 1 << 14;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 75);
  std::vector<Fr> scalars = ec::msm_testing::random_scalars(n, 76);
  const std::vector<Fr> sparse = ec::msm_testing::witness_like_scalars(n / 4, 60, 39, 77);
  std::copy(sparse.begin(), sparse.end(), scalars.begin());
  std::copy(sparse.begin(), sparse.end(), scalars.end() - static_cast<std::ptrdiff_t>(sparse.size()));
  ASSERT_LT(DeviceMsm::default_window_bits<TypeParam>(n / 4 / 100 + 1),
            DeviceMsm::default_window_bits<TypeParam>(n / 2));
  this->expect_matches(points, scalars, {n / 4, 3 * n / 4});
  this->expect_matches(points, scalars, {n / 8, n / 4, n / 2, 3 * n / 4, 7 * n / 8});
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

template <class Curve>
using OtherGroup = std::conditional_t<std::is_same_v<Curve, ec::G1Curve>, ec::G2Curve, ec::G1Curve>;

// One DeviceMsm: a sum in parts, then a plain sum, then parts of the other group.
TYPED_TEST(GpuMsmParts, AlternatesWithPlainSums) {
  using Other = OtherGroup<TypeParam>;
  const std::size_t n = 2000;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 71);
  const auto scalars = ec::msm_testing::witness_like_scalars(n, 40, 40, 72);
  this->expect_matches(points, scalars, {500, 1500});
  const DeviceBases<TypeParam> bases(points, *this->staging_, nullptr);
  DeviceBuffer<Fr> d_scalars(n);
  check(cudaMemcpy(d_scalars.data(), scalars.data(), n * sizeof(Fr), cudaMemcpyHostToDevice), "up");
  EXPECT_EQ(this->msm_.sum(bases, d_scalars.data(), n, nullptr), ec::msm<TypeParam>(points, scalars));
  const auto other_points = ec::msm_testing::random_points<Other>(n, 73);
  const DeviceBases<Other> other_bases(other_points, *this->staging_, nullptr);
  this->msm_.template begin_parts<Other>();
  this->msm_.add_part(DeviceBasesView<Other>(other_bases.data(), 800), d_scalars.data(), 800, nullptr);
  this->msm_.add_part(DeviceBasesView<Other>(other_bases.data() + 800, n - 800), d_scalars.data() + 800, n - 800,
                      nullptr);
  EXPECT_EQ(this->msm_.template end_parts<Other>(nullptr), ec::msm<Other>(other_points, scalars));
  this->expect_matches(points, scalars, {1});
}

TYPED_TEST(GpuMsmParts, PartsOutOfOrderAreRefused) {
  const auto points = ec::msm_testing::random_points<TypeParam>(10, 74);
  const DeviceBases<TypeParam> bases(points, *this->staging_, nullptr);
  DeviceBuffer<Fr> d_scalars(10);
  EXPECT_THROW(this->msm_.add_part(DeviceBasesView<TypeParam>(bases), d_scalars.data(), 10, nullptr),
               std::logic_error);
  EXPECT_THROW(this->msm_.template end_parts<TypeParam>(nullptr), std::logic_error);
  this->msm_.template begin_parts<OtherGroup<TypeParam>>();
  EXPECT_THROW(this->msm_.add_part(DeviceBasesView<TypeParam>(bases), d_scalars.data(), 10, nullptr),
               std::logic_error);
  this->msm_.template begin_parts<TypeParam>();
  EXPECT_THROW(this->msm_.add_part(DeviceBasesView<TypeParam>(bases), d_scalars.data(), 11, nullptr),
               std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::gpu
