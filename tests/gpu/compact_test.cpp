// DeviceSelect against the host gather: same values, same order, bit for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

#include "ff/fr.hpp"
#include "gpu/compact.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/staging.hpp"
#include "gpu_test_env.hpp"
#include "r1cs/density.hpp"

namespace zkpipe::gpu {
namespace {

using ff::Fr;

// Sizes off word boundaries, densities from empty to full, and a density longer
// than the values (its extra bits must be ignored).
TEST(DeviceSelect, EqualsHostGather) {
  ZKPIPE_REQUIRE_GPU();
  std::mt19937_64 rng(77);
  PinnedStaging staging(std::size_t{1} << 12);  // small chunks: several per upload
  DeviceSelect select;
  for (std::size_t n : {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{1000}, std::size_t{70001}}) {
    for (unsigned percent : {0u, 13u, 50u, 100u}) {
      std::vector<Fr> values(n);
      for (auto& x : values) x = Fr::random(rng);
      r1cs::DensityBitmap density(n + 37);
      for (std::size_t i = 0; i < density.size(); ++i) {
        if (rng() % 100 < percent) density.set(i);
      }
      std::vector<Fr> expected;
      for (std::size_t i = 0; i < n; ++i) {
        if (density.test(i)) expected.push_back(values[i]);
      }
      ASSERT_EQ(count_selected(density, n), expected.size());
      DeviceBuffer<Fr> in(n);
      DeviceBuffer<Fr> out(n + 1);
      check(cudaMemcpy(in.data(), values.data(), n * sizeof(Fr), cudaMemcpyHostToDevice), "upload");
      // Poison: an unwritten slot cannot pass for a selected value.
      check(cudaMemset(out.data(), 0xa5, (n + 1) * sizeof(Fr)), "poison");
      const std::size_t count = select.select(in.data(), n, density, out.data(), staging, nullptr);
      ASSERT_EQ(count, expected.size()) << "n " << n << " percent " << percent;
      std::vector<Fr> got(n + 1);
      check(cudaDeviceSynchronize(), "sync");
      check(cudaMemcpy(got.data(), out.data(), (n + 1) * sizeof(Fr), cudaMemcpyDeviceToHost), "download");
      for (std::size_t j = 0; j < count; ++j) ASSERT_EQ(got[j], expected[j]) << "n " << n << " j " << j;
      std::vector<unsigned char> tail(sizeof(Fr), 0xa5);
      EXPECT_EQ(std::memcmp(&got[count], tail.data(), sizeof(Fr)), 0) << "wrote past the selection";
    }
  }
}

TEST(DeviceSelect, RejectsShortDensity) {
  ZKPIPE_REQUIRE_GPU();
  PinnedStaging staging;
  DeviceSelect select;
  DeviceBuffer<Fr> buf(8);
  EXPECT_THROW(select.select(buf.data(), 8, r1cs::DensityBitmap(7), buf.data(), staging, nullptr),
               std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::gpu
