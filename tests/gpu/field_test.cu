// Device Fr, Fp and G1 arithmetic against the host's, bit for bit.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/g1.cuh"
#include "gpu_test_env.hpp"
#include "xyzz_check.cuh"

namespace zkpipe::gpu {
namespace {

using device_check::to_device;
using device_check::to_host;

constexpr int kOps = 6;

// out[kOps·i …] = a·b, a + b, a − b, a², −a, a·b + c·d (c, d: the neighbours' b and a)
template <class F>
__global__ void field_ops_kernel(const F* a, const F* b, F* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[kOps * i + 0] = a[i] * b[i];
  out[kOps * i + 1] = a[i] + b[i];
  out[kOps * i + 2] = a[i] - b[i];
  out[kOps * i + 3] = a[i].square();
  out[kOps * i + 4] = -a[i];
  out[kOps * i + 5] = F::sum_of_products(a[i], b[i], b[(i + 1) % n], a[(i + 3) % n]);
}

template <class HostField>
std::vector<HostField> edge_and_random(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<HostField> v = {HostField::zero(), HostField::one(), -HostField::one(), HostField::from_u64(2),
                              -HostField::from_u64(2)};
  while (v.size() < n) v.push_back(HostField::random(rng));
  return v;
}

template <class HostField, class DeviceField>
void check_field_ops(std::uint64_t seed) {
  const std::size_t n = 4096;
  std::vector<HostField> a = edge_and_random<HostField>(n, seed);
  std::vector<HostField> b = edge_and_random<HostField>(n, seed + 1);
  std::swap(b[0], b[7]);  // pair edge values with other values too
  a[10] = b[10] = b[11] = a[13] = -HostField::one();  // the largest a·b + c·d
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
    ASSERT_EQ(out[kOps * i + 5], a[i] * b[i] + b[(i + 1) % n] * a[(i + 3) % n]) << "sum of products " << i;
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

TEST(GpuG1, XyzzOperationsMatchHost) {
  ZKPIPE_REQUIRE_GPU();
  device_check::expect_xyzz_ops_match_host<ec::G1Curve, G1Xyzz>(256, 3);
}

}  // namespace
}  // namespace zkpipe::gpu
