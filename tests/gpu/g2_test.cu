// Device Fp2 and G2 arithmetic against the host's ff::Fp2 and ec::Xyzz<G2Curve>, bit
// for bit.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ec/msm_testing.hpp"
#include "ec/xyzz.hpp"
#include "ff/fp2.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/g2.cuh"
#include "gpu/msm.hpp"
#include "gpu_test_env.hpp"

namespace zkpipe::gpu {
namespace {

template <class T>
DeviceBuffer<T> to_device(const std::vector<T>& v) {
  DeviceBuffer<T> d(v.size());
  check(cudaMemcpy(d.data(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice), "to device");
  return d;
}

template <class T>
std::vector<T> to_host(const DeviceBuffer<T>& d, std::size_t n) {
  std::vector<T> v(n);
  check(cudaMemcpy(v.data(), d.data(), n * sizeof(T), cudaMemcpyDeviceToHost), "to host");
  return v;
}

constexpr int kOps = 6;

// out[kOps·i …] = a·b, a + b, a − b, a², −a, 2a
__global__ void fp2_ops_kernel(const Fp2* a, const Fp2* b, Fp2* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[kOps * i + 0] = a[i] * b[i];
  out[kOps * i + 1] = a[i] + b[i];
  out[kOps * i + 2] = a[i] - b[i];
  out[kOps * i + 3] = a[i].square();
  out[kOps * i + 4] = -a[i];
  out[kOps * i + 5] = a[i].dbl();
}

std::vector<ff::Fp2> edge_and_random(std::size_t n, std::uint64_t seed) {
  using ff::Fp;
  using ff::Fp2;
  std::mt19937_64 rng(seed);
  const Fp2 u{Fp::zero(), Fp::one()};
  std::vector<Fp2> v = {Fp2::zero(), Fp2::one(), -Fp2::one(), u, -u, Fp2{Fp::one(), Fp::one()},
                        Fp2{-Fp::one(), -Fp::one()}, Fp2{Fp::from_u64(2), -Fp::one()}};
  while (v.size() < n) v.push_back(Fp2::random(rng));
  return v;
}

TEST(GpuFp2, MatchesHost) {
  ZKPIPE_REQUIRE_GPU();
  const std::size_t n = 4096;
  const std::vector<ff::Fp2> a = edge_and_random(n, 21);
  std::vector<ff::Fp2> b = edge_and_random(n, 22);
  std::swap(b[0], b[9]);  // pair edge values with other values too
  std::swap(b[3], b[10]);
  auto da = to_device(a);
  auto db = to_device(b);
  DeviceBuffer<ff::Fp2> dout(kOps * n);
  fp2_ops_kernel<<<(n + 255) / 256, 256>>>(reinterpret_cast<const Fp2*>(da.data()),
                                           reinterpret_cast<const Fp2*>(db.data()),
                                           reinterpret_cast<Fp2*>(dout.data()), n);
  check_launch("fp2_ops_kernel");
  const std::vector<ff::Fp2> out = to_host(dout, kOps * n);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[kOps * i + 0], a[i] * b[i]) << "mul " << i;
    ASSERT_EQ(out[kOps * i + 1], a[i] + b[i]) << "add " << i;
    ASSERT_EQ(out[kOps * i + 2], a[i] - b[i]) << "sub " << i;
    ASSERT_EQ(out[kOps * i + 3], a[i].square()) << "square " << i;
    ASSERT_EQ(out[kOps * i + 4], -a[i]) << "neg " << i;
    ASSERT_EQ(out[kOps * i + 5], a[i].dbl()) << "dbl " << i;
  }
}

using HostAffine = ec::Affine<ec::G2Curve>;
using HostXyzz = ec::Xyzz<ec::G2Curve>;
using HostJacobian = ec::Jacobian<ec::G2Curve>;

constexpr int kPointOps = 4;

// From p and q: p + q (mixed), p + q (XYZZ, through 2q − q), 2p, 5p.
__global__ void g2_ops_kernel(const G2Affine* p, const G2Affine* q, G2Xyzz* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const G2Xyzz xp = G2Xyzz::from_affine(p[i]);
  out[kPointOps * i + 0] = xp.add_affine(q[i]);
  out[kPointOps * i + 1] = xp + G2Xyzz::from_affine(q[i]).dbl().add_affine(-q[i]);
  out[kPointOps * i + 2] = xp.dbl();
  out[kPointOps * i + 3] = xp.mul_small(5);
}

struct XyzzWords {
  ff::Fp2 X, Y, ZZ, ZZZ;
  HostJacobian jacobian() const { return HostXyzz{X, Y, ZZ, ZZZ}.to_jacobian(); }
};

G2AffineWords words(const HostAffine& p) { return p.infinity ? G2AffineWords{} : G2AffineWords{p.x, p.y}; }

TEST(GpuG2, XyzzOperationsMatchHost) {
  ZKPIPE_REQUIRE_GPU();
  std::vector<HostAffine> ps = ec::msm_testing::random_points<ec::G2Curve>(128, 23);
  std::vector<HostAffine> qs = ec::msm_testing::random_points<ec::G2Curve>(128, 24);
  // The special cases: q = p (doubling), q = −p (cancels), identities.
  qs[0] = ps[0];
  qs[1] = -ps[1];
  qs[2] = HostAffine::identity();
  ps[3] = HostAffine::identity();
  ps[4] = HostAffine::identity();
  qs[4] = HostAffine::identity();
  const std::size_t n = ps.size();
  std::vector<G2AffineWords> pw, qw;
  for (std::size_t i = 0; i < n; ++i) {
    pw.push_back(words(ps[i]));
    qw.push_back(words(qs[i]));
  }
  auto dp = to_device(pw);
  auto dq = to_device(qw);
  DeviceBuffer<XyzzWords> dout(kPointOps * n);
  g2_ops_kernel<<<(n + 63) / 64, 64>>>(reinterpret_cast<const G2Affine*>(dp.data()),
                                       reinterpret_cast<const G2Affine*>(dq.data()),
                                       reinterpret_cast<G2Xyzz*>(dout.data()), n);
  check_launch("g2_ops_kernel");
  const std::vector<XyzzWords> out = to_host(dout, kPointOps * n);
  for (std::size_t i = 0; i < n; ++i) {
    const HostJacobian p = HostJacobian::from_affine(ps[i]);
    const HostJacobian q = HostJacobian::from_affine(qs[i]);
    EXPECT_EQ(out[kPointOps * i + 0].jacobian(), p + q) << i;
    EXPECT_EQ(out[kPointOps * i + 1].jacobian(), p + q) << i;
    EXPECT_EQ(out[kPointOps * i + 2].jacobian(), p.dbl()) << i;
    EXPECT_EQ(out[kPointOps * i + 3].jacobian(), p.dbl().dbl() + p) << i;
    // The device's XYZZ representatives equal the host's, not just the points.
    const HostXyzz px = HostXyzz::from_affine(ps[i]);
    const HostXyzz mixed = px + qs[i];
    const HostXyzz twice = px.dbl();
    EXPECT_EQ(out[kPointOps * i + 0].X, mixed.X) << i;
    EXPECT_EQ(out[kPointOps * i + 0].Y, mixed.Y) << i;
    EXPECT_EQ(out[kPointOps * i + 0].ZZ, mixed.ZZ) << i;
    EXPECT_EQ(out[kPointOps * i + 0].ZZZ, mixed.ZZZ) << i;
    EXPECT_EQ(out[kPointOps * i + 2].X, twice.X) << i;
    EXPECT_EQ(out[kPointOps * i + 2].ZZZ, twice.ZZZ) << i;
  }
}

}  // namespace
}  // namespace zkpipe::gpu
