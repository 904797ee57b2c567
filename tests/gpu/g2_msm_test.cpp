// Device G2 MSM against ec::msm<G2Curve>, compared as points.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "ec/msm/msm.hpp"
#include "ec/msm/testing.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm.hpp"
#include "gpu_test_env.hpp"

namespace zkpipe::gpu {
namespace {

using ff::Fr;
using Affine = ec::Affine<ec::G2Curve>;
using Jacobian = ec::Jacobian<ec::G2Curve>;

class GpuG2Msm : public ::testing::Test {
 protected:
  void SetUp() override {
    ZKPIPE_REQUIRE_GPU();
    staging_ = std::make_unique<PinnedStaging>(1 << 20);  // small chunks: uploads take several turns
  }

  Jacobian device_msm(const std::vector<Affine>& points, const std::vector<Fr>& scalars, unsigned window_bits = 0) {
    DeviceG2Bases bases(points, *staging_, nullptr);
    DeviceBuffer<Fr> d_scalars(scalars.size());
    check(cudaMemcpy(d_scalars.data(), scalars.data(), scalars.size() * sizeof(Fr), cudaMemcpyHostToDevice),
          "upload scalars");
    return msm_.sum(bases, d_scalars.data(), scalars.size(), nullptr, window_bits);
  }

  void expect_matches(const std::vector<Affine>& points, const std::vector<Fr>& scalars, unsigned window_bits = 0) {
    const Jacobian expected = ec::msm<ec::G2Curve>(points, scalars);
    EXPECT_EQ(device_msm(points, scalars, window_bits), expected)
        << "n " << scalars.size() << " window " << window_bits;
  }

  std::unique_ptr<PinnedStaging> staging_;
  DeviceMsm msm_;
};

TEST_F(GpuG2Msm, RandomScalarsAtSeveralSizes) {
  for (std::size_t n : {1, 2, 3, 100, 1000, (1 << 14) + 5}) {
    expect_matches(ec::msm_testing::random_points<ec::G2Curve>(n, n), ec::msm_testing::random_scalars(n, n + 1));
  }
}

TEST_F(GpuG2Msm, SeveralWindowWidths) {
  const std::size_t n = 3000;
  auto points = ec::msm_testing::random_points<ec::G2Curve>(n, 31);
  auto scalars = ec::msm_testing::random_scalars(n, 32);
  for (unsigned c : {2u, 5u, 8u, 13u, 16u}) expect_matches(points, scalars, c);
}

TEST_F(GpuG2Msm, WitnessShapedScalars) {
  const std::size_t n = 1 << 15;
  auto points = ec::msm_testing::random_points<ec::G2Curve>(n, 33);
  expect_matches(points, ec::msm_testing::witness_like_scalars(n, 50, 45, 34));
}

TEST_F(GpuG2Msm, EdgeCases) {
  const std::size_t n = 3000;
  auto points = ec::msm_testing::random_points<ec::G2Curve>(n, 35);
  expect_matches(points, std::vector<Fr>(n, Fr::zero()));
  expect_matches(points, std::vector<Fr>(n, Fr::one()));
  expect_matches(points, std::vector<Fr>(n, -Fr::one()));
  std::vector<Fr> scalars = ec::msm_testing::random_scalars(n, 36);
  ec::msm_testing::mix_in_edge_cases(points, scalars);
  expect_matches(points, scalars);
  expect_matches(points, scalars, 4);
  // Only points at infinity: the sum is the identity.
  EXPECT_EQ(device_msm(std::vector<Affine>(100, Affine::identity()), ec::msm_testing::random_scalars(100, 37)),
            Jacobian::identity());
}

TEST_F(GpuG2Msm, RepeatedValuesAmongRandomOnes) {
  const std::size_t n = 1 << 14;
  auto points = ec::msm_testing::random_points<ec::G2Curve>(n, 39);
  std::vector<Fr> scalars = ec::msm_testing::random_scalars(n, 40);
  const std::vector<Fr> repeated = ec::msm_testing::random_scalars(2, 41);
  for (std::size_t i = 0; i < n; i += 3) scalars[i] = repeated[(i / 3) % 2];
  expect_matches(points, scalars);
}

TEST_F(GpuG2Msm, FewerScalarsThanBases) {
  auto points = ec::msm_testing::random_points<ec::G2Curve>(1000, 38);
  auto scalars = ec::msm_testing::random_scalars(999, 39);
  DeviceG2Bases bases(points, *staging_, nullptr);
  DeviceBuffer<Fr> d_scalars(scalars.size());
  check(cudaMemcpy(d_scalars.data(), scalars.data(), scalars.size() * sizeof(Fr), cudaMemcpyHostToDevice), "up");
  EXPECT_EQ(msm_.sum(bases, d_scalars.data(), 999, nullptr),
            ec::msm<ec::G2Curve>(std::span<const Affine>(points).first(999), scalars));
  EXPECT_THROW(msm_.sum(bases, d_scalars.data(), 1001, nullptr), std::invalid_argument);
}

// One DeviceMsm serves both groups in turn (the scratch is shared).
TEST_F(GpuG2Msm, AlternatesWithG1) {
  const std::size_t n = 2000;
  auto g1_points = ec::msm_testing::random_points<ec::G1Curve>(n, 40);
  auto g2_points = ec::msm_testing::random_points<ec::G2Curve>(n, 41);
  auto scalars = ec::msm_testing::random_scalars(n, 42);
  DeviceG1Bases g1_bases(g1_points, *staging_, nullptr);
  DeviceBuffer<Fr> d_scalars(n);
  check(cudaMemcpy(d_scalars.data(), scalars.data(), n * sizeof(Fr), cudaMemcpyHostToDevice), "up");
  EXPECT_EQ(msm_.sum(g1_bases, d_scalars.data(), n, nullptr), ec::msm<ec::G1Curve>(g1_points, scalars));
  expect_matches(g2_points, scalars);
  EXPECT_EQ(msm_.sum(g1_bases, d_scalars.data(), n, nullptr), ec::msm<ec::G1Curve>(g1_points, scalars));
}

}  // namespace
}  // namespace zkpipe::gpu
