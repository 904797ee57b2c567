// Device Fr, Fp and G1 arithmetic against the host's, bit for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "ec/msm_testing.hpp"
#include "ec/xyzz.hpp"
#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/g1.cuh"
#include "gpu/msm.hpp"
#include "gpu_test_env.hpp"

namespace zkpipe::gpu {
namespace {

constexpr int kOps = 5;

// out[kOps·i …] = a·b, a + b, a − b, a², −a
template <class F>
__global__ void field_ops_kernel(const F* a, const F* b, F* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[kOps * i + 0] = a[i] * b[i];
  out[kOps * i + 1] = a[i] + b[i];
  out[kOps * i + 2] = a[i] - b[i];
  out[kOps * i + 3] = a[i].square();
  out[kOps * i + 4] = -a[i];
}

template <class HostField>
std::vector<HostField> edge_and_random(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<HostField> v = {HostField::zero(), HostField::one(), -HostField::one(), HostField::from_u64(2),
                              -HostField::from_u64(2)};
  while (v.size() < n) v.push_back(HostField::random(rng));
  return v;
}

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

template <class HostField, class DeviceField>
void check_field_ops(std::uint64_t seed) {
  const std::size_t n = 4096;
  std::vector<HostField> a = edge_and_random<HostField>(n, seed);
  std::vector<HostField> b = edge_and_random<HostField>(n, seed + 1);
  std::swap(b[0], b[7]);  // pair edge values with other values too
  auto da = to_device(a);
  auto db = to_device(b);
  DeviceBuffer<HostField> dout(kOps * n);
  field_ops_kernel<DeviceField><<<(n + 255) / 256, 256>>>(reinterpret_cast<const DeviceField*>(da.data()),
                                                          reinterpret_cast<const DeviceField*>(db.data()),
                                                          reinterpret_cast<DeviceField*>(dout.data()), n);
  check_launch("field_ops_kernel");
  std::vector<HostField> out = to_host(dout, kOps * n);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[kOps * i + 0], a[i] * b[i]) << "mul " << i;
    ASSERT_EQ(out[kOps * i + 1], a[i] + b[i]) << "add " << i;
    ASSERT_EQ(out[kOps * i + 2], a[i] - b[i]) << "sub " << i;
    ASSERT_EQ(out[kOps * i + 3], a[i].square()) << "square " << i;
    ASSERT_EQ(out[kOps * i + 4], -a[i]) << "neg " << i;
  }
}

TEST(GpuField, FrMatchesHost) {
  ZKPIPE_REQUIRE_GPU();
  check_field_ops<ff::Fr, Fr>(1);
}

TEST(GpuField, FpMatchesHost) {
  ZKPIPE_REQUIRE_GPU();
  check_field_ops<ff::Fp, Fp>(2);
}

using HostAffine = ec::Affine<ec::G1Curve>;
using HostXyzz = ec::Xyzz<ec::G1Curve>;
using HostJacobian = ec::Jacobian<ec::G1Curve>;

constexpr int kPointOps = 4;

// From p and q: p + q (mixed), p + q (XYZZ), 2p, 5p.
__global__ void g1_ops_kernel(const G1Affine* p, const G1Affine* q, G1Xyzz* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const G1Xyzz xp = G1Xyzz::from_affine(p[i]);
  out[kPointOps * i + 0] = xp.add_affine(q[i]);
  out[kPointOps * i + 1] = xp + G1Xyzz::from_affine(q[i]).dbl().add_affine(-q[i]);
  out[kPointOps * i + 2] = xp.dbl();
  out[kPointOps * i + 3] = xp.mul_small(5);
}

struct XyzzWords {
  ff::Fp X, Y, ZZ, ZZZ;
  HostJacobian jacobian() const { return HostXyzz{X, Y, ZZ, ZZZ}.to_jacobian(); }
};

G1AffineWords words(const HostAffine& p) { return p.infinity ? G1AffineWords{} : G1AffineWords{p.x, p.y}; }

TEST(GpuG1, XyzzOperationsMatchHost) {
  ZKPIPE_REQUIRE_GPU();
  std::vector<HostAffine> ps = ec::msm_testing::random_points<ec::G1Curve>(256, 3);
  std::vector<HostAffine> qs = ec::msm_testing::random_points<ec::G1Curve>(256, 4);
  // The special cases: q = p (doubling), q = −p (cancels), identities.
  qs[0] = ps[0];
  qs[1] = -ps[1];
  qs[2] = HostAffine::identity();
  ps[3] = HostAffine::identity();
  ps[4] = HostAffine::identity();
  qs[4] = HostAffine::identity();
  const std::size_t n = ps.size();
  std::vector<G1AffineWords> pw, qw;
  for (std::size_t i = 0; i < n; ++i) {
    pw.push_back(words(ps[i]));
    qw.push_back(words(qs[i]));
  }
  auto dp = to_device(pw);
  auto dq = to_device(qw);
  DeviceBuffer<XyzzWords> dout(kPointOps * n);
  g1_ops_kernel<<<(n + 63) / 64, 64>>>(reinterpret_cast<const G1Affine*>(dp.data()),
                                       reinterpret_cast<const G1Affine*>(dq.data()),
                                       reinterpret_cast<G1Xyzz*>(dout.data()), n);
  check_launch("g1_ops_kernel");
  std::vector<XyzzWords> out = to_host(dout, kPointOps * n);
  for (std::size_t i = 0; i < n; ++i) {
    const HostJacobian p = HostJacobian::from_affine(ps[i]);
    const HostJacobian q = HostJacobian::from_affine(qs[i]);
    EXPECT_EQ(out[kPointOps * i + 0].jacobian(), p + q) << i;
    EXPECT_EQ(out[kPointOps * i + 1].jacobian(), p + q) << i;
    EXPECT_EQ(out[kPointOps * i + 2].jacobian(), p.dbl()) << i;
    EXPECT_EQ(out[kPointOps * i + 3].jacobian(), p.dbl().dbl() + p) << i;
    // The device's XYZZ representative equals the host's, not just the point.
    const HostXyzz host = HostXyzz::from_affine(ps[i]) + qs[i];
    EXPECT_EQ(out[kPointOps * i + 0].X, host.X) << i;
    EXPECT_EQ(out[kPointOps * i + 0].ZZZ, host.ZZZ) << i;
  }
}

}  // namespace
}  // namespace zkpipe::gpu
