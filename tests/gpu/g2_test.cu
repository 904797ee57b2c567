// Device Fp2 and G2 arithmetic against the host's ff::Fp2 and ec::Xyzz<G2Curve>, bit
// for bit.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ff/fp2.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/g2.cuh"
#include "gpu_test_env.hpp"
#include "xyzz_check.cuh"

namespace zkpipe::gpu {
namespace {

using device_check::to_device;
using device_check::to_host;

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

TEST(GpuG2, XyzzOperationsMatchHost) {
  ZKPIPE_REQUIRE_GPU();
  device_check::expect_xyzz_ops_match_host<ec::G2Curve, G2Xyzz>(128, 23);
}

}  // namespace
}  // namespace zkpipe::gpu
