// Device G1 MSM against ec::msm, compared as points.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "ec/msm/msm.hpp"
#include "ec/msm/testing.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm.hpp"
#include "gpu_test_env.hpp"

namespace zkpipe::gpu {
namespace {

using ff::Fr;
using Affine = ec::Affine<ec::G1Curve>;
using Jacobian = ec::Jacobian<ec::G1Curve>;

class GpuMsm : public ::testing::Test {
 protected:
  void SetUp() override {
    ZKPIPE_REQUIRE_GPU();
    staging_ = std::make_unique<PinnedStaging>(1 << 20);  // small chunks: uploads take several turns
  }

  Jacobian device_msm(const std::vector<Affine>& points, const std::vector<Fr>& scalars, unsigned window_bits = 0) {
    DeviceG1Bases bases(points, *staging_, nullptr);
    DeviceBuffer<Fr> d_scalars(scalars.size());
    check(cudaMemcpy(d_scalars.data(), scalars.data(), scalars.size() * sizeof(Fr), cudaMemcpyHostToDevice),
          "upload scalars");
    return msm_.sum(bases, d_scalars.data(), scalars.size(), nullptr, window_bits);
  }

  void expect_matches(const std::vector<Affine>& points, const std::vector<Fr>& scalars, unsigned window_bits = 0) {
    const Jacobian expected = ec::msm<ec::G1Curve>(points, scalars);
    EXPECT_EQ(device_msm(points, scalars, window_bits), expected)
        << "n " << scalars.size() << " window " << window_bits;
  }

  std::unique_ptr<PinnedStaging> staging_;
  DeviceMsm msm_;
};

TEST_F(GpuMsm, RandomScalarsAtSeveralSizes) {
  for (std::size_t n : {1, 2, 3, 100, 1000, 1 << 14, (1 << 17) + 5}) {
    expect_matches(ec::msm_testing::random_points<ec::G1Curve>(n, n), ec::msm_testing::random_scalars(n, n + 1));
  }
}

TEST_F(GpuMsm, EveryWindowWidth) {
  const std::size_t n = 3000;
  auto points = ec::msm_testing::random_points<ec::G1Curve>(n, 7);
  auto scalars = ec::msm_testing::random_scalars(n, 8);
  for (unsigned c = 2; c <= 20; ++c) expect_matches(points, scalars, c);
}

TEST_F(GpuMsm, WitnessShapedScalars) {
  const std::size_t n = 1 << 16;
  auto points = ec::msm_testing::random_points<ec::G1Curve>(n, 9);
  expect_matches(points, ec::msm_testing::witness_like_scalars(n, 50, 45, 10));
  expect_matches(points, ec::msm_testing::witness_like_scalars(n, 0, 90, 11));
}

TEST_F(GpuMsm, EdgeCases) {
  const std::size_t n = 5000;
  auto points = ec::msm_testing::random_points<ec::G1Curve>(n, 12);
  expect_matches(points, std::vector<Fr>(n, Fr::zero()));
  expect_matches(points, std::vector<Fr>(n, Fr::one()));
  expect_matches(points, std::vector<Fr>(n, -Fr::one()));
  expect_matches(points, std::vector<Fr>(n, Fr::from_u64(2)));
  std::vector<Fr> scalars = ec::msm_testing::random_scalars(n, 13);
  ec::msm_testing::mix_in_edge_cases(points, scalars);
  for (std::size_t i = 1; i < n; i += 10) scalars[i] = Fr::from_u64(3);  // small scalars too
  expect_matches(points, scalars);
  expect_matches(points, scalars, 4);
}

// A few values repeated thousands of times among random ones (a witness's shared
// Merkle siblings): their buckets are cut into chunks summed separately.
TEST_F(GpuMsm, RepeatedValuesAmongRandomOnes) {
  const std::size_t n = 1 << 16;
  auto points = ec::msm_testing::random_points<ec::G1Curve>(n, 16);
  std::vector<Fr> scalars = ec::msm_testing::random_scalars(n, 17);
  const std::vector<Fr> repeated = ec::msm_testing::random_scalars(3, 18);
  for (std::size_t i = 0; i < n; i += 4) scalars[i] = repeated[(i / 4) % 3];
  for (std::size_t i = 1; i < n; i += 64) scalars[i] = Fr::from_u64(5);
  expect_matches(points, scalars);
  expect_matches(points, scalars, 9);
}

TEST_F(GpuMsm, FewerScalarsThanBases) {
  auto points = ec::msm_testing::random_points<ec::G1Curve>(1000, 14);
  auto scalars = ec::msm_testing::random_scalars(999, 15);
  DeviceG1Bases bases(points, *staging_, nullptr);
  DeviceBuffer<Fr> d_scalars(scalars.size());
  check(cudaMemcpy(d_scalars.data(), scalars.data(), scalars.size() * sizeof(Fr), cudaMemcpyHostToDevice), "up");
  EXPECT_EQ(msm_.sum(bases, d_scalars.data(), 999, nullptr),
            ec::msm<ec::G1Curve>(std::span<const Affine>(points).first(999), scalars));
  EXPECT_THROW(msm_.sum(bases, d_scalars.data(), 1001, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::gpu
