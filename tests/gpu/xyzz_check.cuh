// Shared by the device field and point tests: copies between host vectors and
// device buffers, and the check that a curve's device XYZZ arithmetic equals the
// host's ec::Xyzz, point and representative, on random points and special cases.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ec/msm/testing.hpp"
#include "ec/xyzz.hpp"
#include "gpu/cuda_error.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm.hpp"

namespace zkpipe::gpu::device_check {

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

inline constexpr int kPointOps = 4;

// From p and q: p + q (mixed), p + q (XYZZ, through 2q − q), 2p, 5p.
template <class Xyzz>
__global__ void xyzz_ops_kernel(const typename Xyzz::Affine* p, const typename Xyzz::Affine* q, Xyzz* out,
                                unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Xyzz xp = Xyzz::from_affine(p[i]);
  out[kPointOps * i + 0] = xp.add_affine(q[i]);
  out[kPointOps * i + 1] = xp + Xyzz::from_affine(q[i]).dbl().add_affine(-q[i]);
  out[kPointOps * i + 2] = xp.dbl();
  out[kPointOps * i + 3] = xp.mul_small(5);
}

// n random pairs (p, q) with q = p, q = −p and identities among them.
template <class Curve, class Xyzz>
void expect_xyzz_ops_match_host(std::size_t n, std::uint64_t seed) {
  using HostAffine = ec::Affine<Curve>;
  using HostXyzz = ec::Xyzz<Curve>;
  using HostJacobian = ec::Jacobian<Curve>;
  struct XyzzWords {
    typename Curve::Field X, Y, ZZ, ZZZ;
  };
  static_assert(sizeof(XyzzWords) == sizeof(Xyzz) && sizeof(AffineWords<Curve>) == sizeof(typename Xyzz::Affine));

  std::vector<HostAffine> ps = ec::msm_testing::random_points<Curve>(n, seed);
  std::vector<HostAffine> qs = ec::msm_testing::random_points<Curve>(n, seed + 1);
  qs[0] = ps[0];
  qs[1] = -ps[1];
  qs[2] = HostAffine::identity();
  ps[3] = HostAffine::identity();
  ps[4] = HostAffine::identity();
  qs[4] = HostAffine::identity();
  const auto words = [](const HostAffine& p) {
    return p.infinity ? AffineWords<Curve>{} : AffineWords<Curve>{p.x, p.y};
  };
  std::vector<AffineWords<Curve>> pw, qw;
  for (std::size_t i = 0; i < n; ++i) {
    pw.push_back(words(ps[i]));
    qw.push_back(words(qs[i]));
  }
  const auto dp = to_device(pw);
  const auto dq = to_device(qw);
  DeviceBuffer<XyzzWords> dout(kPointOps * n);
  xyzz_ops_kernel<Xyzz><<<(n + 63) / 64, 64>>>(reinterpret_cast<const typename Xyzz::Affine*>(dp.data()),
                                               reinterpret_cast<const typename Xyzz::Affine*>(dq.data()),
                                               reinterpret_cast<Xyzz*>(dout.data()), static_cast<unsigned>(n));
  check_launch("xyzz_ops_kernel");
  const std::vector<XyzzWords> out = to_host(dout, kPointOps * n);
  const auto jacobian = [](const XyzzWords& w) { return HostXyzz{w.X, w.Y, w.ZZ, w.ZZZ}.to_jacobian(); };
  for (std::size_t i = 0; i < n; ++i) {
    const HostJacobian p = HostJacobian::from_affine(ps[i]);
    const HostJacobian q = HostJacobian::from_affine(qs[i]);
    EXPECT_EQ(jacobian(out[kPointOps * i + 0]), p + q) << i;
    EXPECT_EQ(jacobian(out[kPointOps * i + 1]), p + q) << i;
    EXPECT_EQ(jacobian(out[kPointOps * i + 2]), p.dbl()) << i;
    EXPECT_EQ(jacobian(out[kPointOps * i + 3]), p.dbl().dbl() + p) << i;
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

}  // namespace zkpipe::gpu::device_check
