// The work kernel_bounds.hpp assigns to the prover's kernels, and the NTT pass count
// it reads from DeviceNtt's plan (host arithmetic, run without a GPU); the rates it
// divides by, measured on a GPU.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>

#include "gpu/device_rates.hpp"
#include "gpu/kernel_bounds.hpp"
#include "gpu/ntt.hpp"
#include "gpu_test_env.hpp"

namespace zkpipe::gpu {
namespace {

// A pass takes at most a tile's stages, the passes after the first at most the tile
// less the two column bits (their loads are runs of four), a reversing first pass
// also two fewer: the fewest passes under those limits.
std::size_t fewest_passes(unsigned lg, unsigned tile, bool reversing) {
  if (lg == 0) return 0;
  const unsigned first = std::min(lg, reversing ? tile - 2 : tile);
  const unsigned later = tile - 2;
  return 1 + (lg - first + later - 1) / later;
}

TEST(KernelBounds, NttPassCountIsTheFewestATileAllows) {
  for (unsigned tile = 4; tile <= DeviceNtt::kMaxTileLog; ++tile) {
    for (unsigned lg = 0; lg <= 27; ++lg) {
      for (const bool reversing : {false, true}) {
        EXPECT_EQ(DeviceNtt::pass_count(lg, tile, reversing), fewest_passes(lg, tile, reversing))
            << "lg " << lg << " tile " << tile << " reversing " << reversing;
      }
    }
  }
  // The 32 GiB PoRep's domain with the default tile: four passes either way.
  EXPECT_EQ(DeviceNtt::pass_count(27, 10, false), 4u);
  EXPECT_EQ(DeviceNtt::pass_count(27, 10, true), 4u);
}

TEST(KernelBounds, HStepWorkCountsPassesAndProducts) {
  // 2^10 in one tile: every transform one pass, the reversing one two (its first pass
  // takes two stages fewer).
  const KernelWork small = h_step_work(10, 10);
  const double n = 1024;
  ASSERT_EQ(DeviceNtt::pass_count(10, 10, false), 1u);
  ASSERT_EQ(DeviceNtt::pass_count(10, 10, true), 2u);
  EXPECT_DOUBLE_EQ(small.bytes, 8 * 64 * n + 128 * n);
  EXPECT_DOUBLE_EQ(small.products, 7 * 9 * n / 2 + 6 * n);
  EXPECT_DOUBLE_EQ(small.additions, 0);
  // 2^27: 28 passes over 4 GiB each way, and the quotient's 16 GiB.
  const KernelWork porep = h_step_work(27, 10);
  EXPECT_DOUBLE_EQ(porep.bytes, (28.0 * 64 + 128) * (1 << 27));
}

TEST(KernelBounds, MsmAccumulationIsOneAdditionPerTermAndWindow) {
  // c = 20: 13 windows of 256 bits.
  const KernelWork w = msm_accumulate_work(std::size_t{1} << 26, 20);
  EXPECT_DOUBLE_EQ(w.additions, 13.0 * (1 << 26));
  EXPECT_DOUBLE_EQ(w.bytes, 13.0 * (1 << 26) * 100);
  EXPECT_DOUBLE_EQ(w.products, 0);
}

TEST(KernelBounds, WitnessSumAddsOnesOnceAndTheRestPerWindow) {
  // 1,000 terms: 500 zeros, 450 ones, 50 others at c = 16 (16 windows).
  const KernelWork w = msm_witness_work(1000, 450, 50, 16);
  EXPECT_DOUBLE_EQ(w.additions, 450 + 50 * 16);
  EXPECT_DOUBLE_EQ(w.bytes, 1000 * 32 + (450 + 50 * 16) * 100);
  EXPECT_DOUBLE_EQ(w.products, 0);
  // No ones and every term general: the accumulation's work and a read of the scalars.
  const KernelWork all = msm_witness_work(1 << 20, 0, 1 << 20, 20);
  EXPECT_DOUBLE_EQ(all.additions, msm_accumulate_work(1 << 20, 20).additions);
  EXPECT_DOUBLE_EQ(all.bytes, msm_accumulate_work(1 << 20, 20).bytes + 32.0 * (1 << 20));
}

TEST(KernelBounds, TheBoundIsTheSlowerOfMemoryAndCompute) {
  const DeviceRates rates{1e12, 5e10, 2.5e9};
  const KernelBound memory_bound = bound({1e12, 5e9, 0}, rates);
  EXPECT_DOUBLE_EQ(memory_bound.memory_seconds, 1.0);
  EXPECT_DOUBLE_EQ(memory_bound.compute_seconds, 0.1);
  EXPECT_DOUBLE_EQ(memory_bound.seconds(), 1.0);
  // Products and additions share the multiprocessors: their times add.
  const KernelBound compute_bound = bound({1e9, 5e10, 2.5e9}, rates);
  EXPECT_DOUBLE_EQ(compute_bound.compute_seconds, 2.0);
  EXPECT_DOUBLE_EQ(compute_bound.seconds(), 2.0);
  // A rate not measured bounds nothing.
  EXPECT_DOUBLE_EQ(bound({1e12, 1e12, 1e12}, DeviceRates{}).seconds(), 0.0);
}

// Every rate comes from kernels that ran: positive and finite (their values are the
// device's, not asserted).
TEST(DeviceRates, AreMeasuredOnTheDevice) {
  ZKPIPE_REQUIRE_GPU();
  const DeviceRates rates = measure_device_rates(0);
  for (const double rate : {rates.bytes_per_second, rates.products_per_second, rates.additions_per_second}) {
    EXPECT_GT(rate, 0);
    EXPECT_TRUE(std::isfinite(rate));
  }
  // A G1 mixed addition is several Fp products, each dearer than an Fr one.
  EXPECT_LT(rates.additions_per_second, rates.products_per_second);
}

}  // namespace
}  // namespace zkpipe::gpu
