// StreamedMsm (bases in host memory or a page-locked copy of them, summed in chunks
// on the device) against ec::msm and the resident DeviceMsm, for G1 and G2,
// compared as points.
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "ec/msm/msm.hpp"
#include "ec/msm/testing.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm.hpp"
#include "gpu/msm_streamed.hpp"
#include "gpu/nonzero_terms.hpp"
#include "gpu/pinned_points.hpp"
#include "gpu_test_env.hpp"
#include "io/file_mapping.hpp"
#include "memory/process_memory.hpp"

namespace zkpipe::gpu {
namespace {

using ff::Fr;

template <class Curve>
class GpuStreamedMsm : public ::testing::Test {
 protected:
  using Affine = ec::Affine<Curve>;
  using Jacobian = ec::Jacobian<Curve>;

  // Nothing touches CUDA before the check: without a device the test skips.
  void SetUp() override {
    ZKPIPE_REQUIRE_GPU();
    msm_ = std::make_unique<DeviceMsm>();
  }

  DeviceBuffer<Fr> upload(const std::vector<Fr>& scalars) {
    DeviceBuffer<Fr> d(std::max<std::size_t>(scalars.size(), 1));
    check(cudaMemcpy(d.data(), scalars.data(), scalars.size() * sizeof(Fr), cudaMemcpyHostToDevice), "upload");
    return d;
  }

  // The first n terms through `streamed` (all of them when n is 0).
  Jacobian streamed_sum(StreamedMsm<Curve>& streamed, const std::vector<Affine>& points,
                        const std::vector<Fr>& scalars, std::size_t n = 0, unsigned window_bits = 0) {
    const DeviceBuffer<Fr> d = upload(scalars);
    return streamed.sum(*msm_, points, d.data(), n ? n : scalars.size(), nullptr, window_bits);
  }

  void expect_matches(std::size_t chunk, const std::vector<Affine>& points, const std::vector<Fr>& scalars) {
    StreamedMsm<Curve> streamed(chunk);
    const Jacobian expected = ec::msm<Curve>(std::span<const Affine>(points).first(scalars.size()), scalars);
    EXPECT_EQ(streamed_sum(streamed, points, scalars), expected) << "n " << scalars.size() << " chunk " << chunk;
  }

  std::unique_ptr<DeviceMsm> msm_;
};

using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(GpuStreamedMsm, Curves);

TYPED_TEST(GpuStreamedMsm, ChunkSizes) {
  const std::size_t n = 1000;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 51);
  const auto scalars = ec::msm_testing::random_scalars(n, 52);
  // One chunk exactly, several with a short last one, a last chunk of one point,
  // many small chunks, a chunk larger than n.
  for (std::size_t chunk : {1000, 300, 999, 7, 5000}) this->expect_matches(chunk, points, scalars);
  EXPECT_EQ(StreamedMsm<TypeParam>(300).chunk_points(n), 300u);
  EXPECT_EQ(StreamedMsm<TypeParam>(5000).chunk_points(n), n);
}

TYPED_TEST(GpuStreamedMsm, WitnessShapedScalarsOverManyChunks) {
  const std::size_t n = (1 << 14) + 3;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 53);
  this->expect_matches(5000, points, ec::msm_testing::witness_like_scalars(n, 50, 45, 54));
  this->expect_matches(1 << 12, points, ec::msm_testing::random_scalars(n, 55));
}

TYPED_TEST(GpuStreamedMsm, EdgeCases) {
  using Affine = ec::Affine<TypeParam>;
  const std::size_t n = 1000;
  auto points = ec::msm_testing::random_points<TypeParam>(n, 56);
  this->expect_matches(300, points, std::vector<Fr>(n, Fr::zero()));
  this->expect_matches(300, points, std::vector<Fr>(n, Fr::one()));
  this->expect_matches(300, points, std::vector<Fr>(n, -Fr::one()));
  // The special cases mixed in, then a chunk of zeros, a chunk of ones and a chunk
  // of points at infinity (with chunks of 300).
  std::vector<Fr> scalars = ec::msm_testing::random_scalars(n, 57);
  ec::msm_testing::mix_in_edge_cases(points, scalars);
  for (std::size_t i = 0; i < 300; ++i) scalars[i] = Fr::zero();
  for (std::size_t i = 300; i < 600; ++i) scalars[i] = Fr::one();
  for (std::size_t i = 600; i < 900; ++i) points[i] = Affine::identity();
  for (std::size_t chunk : {300, 64, 1000, 4096}) this->expect_matches(chunk, points, scalars);
  // Only points at infinity: the identity.
  StreamedMsm<TypeParam> streamed(30);
  EXPECT_EQ(this->streamed_sum(streamed, std::vector<Affine>(100, Affine::identity()),
                               ec::msm_testing::random_scalars(100, 58)),
            ec::Jacobian<TypeParam>::identity());
}

TYPED_TEST(GpuStreamedMsm, EqualsResidentSumAtAFixedWindow) {
  const std::size_t n = 3001;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 59);
  const auto scalars = ec::msm_testing::random_scalars(n, 60);
  const DeviceBuffer<Fr> d = this->upload(scalars);
  PinnedStaging staging;
  const DeviceBases<TypeParam> resident(points, staging, nullptr);
  StreamedMsm<TypeParam> streamed(1000);
  for (unsigned c : {0u, 4u, 11u}) {
    const auto expected = this->msm_->sum(resident, d.data(), n, nullptr, c);
    EXPECT_EQ(streamed.sum(*this->msm_, points, d.data(), n, nullptr, c), expected) << "window " << c;
  }
}

TYPED_TEST(GpuStreamedMsm, FewerScalarsThanBasesAndBounds) {
  using Jacobian = ec::Jacobian<TypeParam>;
  const auto points = ec::msm_testing::random_points<TypeParam>(1000, 61);
  const auto scalars = ec::msm_testing::random_scalars(999, 62);
  StreamedMsm<TypeParam> streamed(400);
  EXPECT_EQ(this->streamed_sum(streamed, points, scalars),
            ec::msm<TypeParam>(std::span<const ec::Affine<TypeParam>>(points).first(999), scalars));
  EXPECT_EQ(this->streamed_sum(streamed, points, scalars, 1),
            ec::msm<TypeParam>(std::span<const ec::Affine<TypeParam>>(points).first(1),
                               std::span<const Fr>(scalars).first(1)));
  const DeviceBuffer<Fr> d = this->upload(scalars);
  EXPECT_EQ(streamed.sum(*this->msm_, points, d.data(), 0, nullptr), Jacobian::identity());
  EXPECT_THROW(streamed.sum(*this->msm_, points, d.data(), 1001, nullptr), std::invalid_argument);
}

// The bases of zero scalars are never sent: what went over the link is the non-zero
// terms' points and their indices, and the sum is still the whole one.
TYPED_TEST(GpuStreamedMsm, SendsOnlyTheNonZeroTermsBases) {
  const std::size_t n = 5000;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 70);
  const auto witness = ec::msm_testing::witness_like_scalars(n, 50, 45, 71);
  const auto zeros = static_cast<std::size_t>(std::count(witness.begin(), witness.end(), Fr::zero()));
  ASSERT_GT(zeros, n / 3);
  StreamedMsm<TypeParam> streamed(700);
  EXPECT_EQ(this->streamed_sum(streamed, points, witness), ec::msm<TypeParam>(points, witness));
  EXPECT_EQ(streamed.last_zero_terms(), zeros);
  EXPECT_EQ(streamed.last_sent_bytes(), (n - zeros) * (sizeof(AffineWords<TypeParam>) + sizeof(std::uint32_t)));
  const auto dense = ec::msm_testing::random_scalars(n, 72);
  EXPECT_EQ(this->streamed_sum(streamed, points, dense), ec::msm<TypeParam>(points, dense));
  EXPECT_EQ(streamed.last_zero_terms(), 0u);
  EXPECT_EQ(streamed.last_sent_bytes(), n * sizeof(AffineWords<TypeParam>));
}

// From a page-locked copy: the same sums (fewer scalars than bases, one chunk or
// many, the last one short, witness-like and random scalars), every point of the
// terms sent, zeros included.
TYPED_TEST(GpuStreamedMsm, FromAPageLockedCopyEqualsTheHostSum) {
  const std::size_t n = 5000;
  const auto points = ec::msm_testing::random_points<TypeParam>(n, 80);
  const PinnedPoints<TypeParam> pinned(points, false, memory::BufferLedger::process());
  ASSERT_EQ(pinned.size(), n);
  const auto witness = ec::msm_testing::witness_like_scalars(n - 3, 50, 45, 81);
  const auto dense = ec::msm_testing::random_scalars(n, 82);
  for (std::size_t chunk : {std::size_t{700}, n, std::size_t{0}}) {
    StreamedMsm<TypeParam> streamed(chunk);
    for (const auto* scalars : {&witness, &dense}) {
      const DeviceBuffer<Fr> d = this->upload(*scalars);
      const std::size_t m = scalars->size();
      EXPECT_EQ(streamed.sum(*this->msm_, pinned, d.data(), m, nullptr),
                ec::msm<TypeParam>(std::span<const ec::Affine<TypeParam>>(points).first(m), *scalars))
          << "chunk " << chunk << " n " << m;
      EXPECT_EQ(streamed.last_sent_bytes(), m * sizeof(AffineWords<TypeParam>));
      EXPECT_EQ(streamed.last_zero_terms(), 0u);
    }
  }
  StreamedMsm<TypeParam> streamed(700);
  const DeviceBuffer<Fr> d = this->upload(dense);
  EXPECT_EQ(streamed.sum(*this->msm_, pinned, d.data(), 0, nullptr), ec::Jacobian<TypeParam>::identity());
  EXPECT_THROW(streamed.sum(*this->msm_, pinned, d.data(), n + 1, nullptr), std::invalid_argument);
}

// The copy holds the device's layout of the points (infinity as (0, 0)); a
// file-mapped source's pages leave the resident set once copied and still read back.
TYPED_TEST(GpuStreamedMsm, PageLockedCopyIsTheDeviceLayoutAndReleasesAMappedSource) {
  using Affine = ec::Affine<TypeParam>;
  const std::size_t n = 3000;
  auto points = ec::msm_testing::random_points<TypeParam>(n, 83);
  points[17] = Affine::identity();
  std::vector<AffineWords<TypeParam>> expected(n);
  to_device_words<TypeParam>(points, expected.data());

  const auto path = std::filesystem::temp_directory_path() / ("zkpipe_pinned_points_" + std::to_string(getpid()));
  const std::size_t bytes = n * sizeof(Affine);
  {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(points.data()), static_cast<std::streamsize>(bytes));
  }
  const auto mapping = io::FileMapping::open(path);
  std::filesystem::remove(path);
  const std::span<const Affine> mapped(reinterpret_cast<const Affine*>(mapping->bytes().data()), n);
  ASSERT_TRUE(std::equal(mapped.begin(), mapped.end(), points.begin()));  // every page read

  const PinnedPoints<TypeParam> pinned(mapped, true, memory::BufferLedger::process());
  EXPECT_EQ(std::memcmp(pinned.span().data(), expected.data(), n * sizeof(AffineWords<TypeParam>)), 0);
  const memory::AddressRange range{mapped.data(), bytes};
  // Only the partial last page may stay.
  EXPECT_LE(memory::present_bytes({&range, 1}).value_or(bytes), static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
  EXPECT_TRUE(std::equal(mapped.begin(), mapped.end(), points.begin()));
}

// One StreamedMsm serves sums of growing and shrinking sizes: its chunk buffers grow
// and are reused.
TYPED_TEST(GpuStreamedMsm, ReusedAcrossSizes) {
  StreamedMsm<TypeParam> fixed(256);
  StreamedMsm<TypeParam> from_memory;
  for (std::size_t n : {100, 3000, 257, 5000, 1}) {
    const auto points = ec::msm_testing::random_points<TypeParam>(n, 63 + n);
    const auto scalars = ec::msm_testing::random_scalars(n, 64 + n);
    const auto expected = ec::msm<TypeParam>(points, scalars);
    EXPECT_EQ(this->streamed_sum(fixed, points, scalars), expected) << "n " << n;
    EXPECT_EQ(this->streamed_sum(from_memory, points, scalars), expected) << "n " << n;
    // A few thousand points fit on any device in one chunk.
    EXPECT_EQ(from_memory.chunk_points(n), n);
  }
  // Random scalars have no zeros: no indices or gathered scalars, only the bitmap beside the chunks.
  EXPECT_EQ(fixed.device_bytes(), 2 * 256 * sizeof(AffineWords<TypeParam>) + (5000 + 31) / 32 * sizeof(std::uint32_t));
  EXPECT_GE(from_memory.device_bytes(), 5000 * sizeof(AffineWords<TypeParam>));
}

// DeviceMsm::scratch_bytes, which placement decisions rely on, covers what DeviceMsm
// allocates for a sum (and does not overstate it grossly): it mirrors the
// reservations of msm_schedule.cu and msm_points.cuh and must follow them.
TYPED_TEST(GpuStreamedMsm, ScratchEstimateCoversDeviceMsm) {
  const std::size_t n = 1 << 18;
  // The allocator's rounding and CUB's own storage.
  const std::size_t slack = std::size_t{48} << 20;
  PinnedStaging staging;
  const DeviceBases<TypeParam> bases(std::vector<ec::Affine<TypeParam>>(n, ec::Affine<TypeParam>::identity()),
                                     staging, nullptr);
  const DeviceBuffer<Fr> d = this->upload(ec::msm_testing::random_scalars(n, 65));
  const auto free_bytes = [] {
    std::size_t free = 0;
    std::size_t total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    return free;
  };
  // A first sum loads the kernels (lazy module loading takes device memory too).
  DeviceMsm().sum(bases, d.data(), n, nullptr);
  const std::size_t before = free_bytes();
  DeviceMsm msm;
  EXPECT_EQ(msm.sum(bases, d.data(), n, nullptr), ec::Jacobian<TypeParam>::identity());
  const std::size_t used = before - free_bytes();
  const std::size_t estimate = DeviceMsm::scratch_bytes<TypeParam>(n);
  EXPECT_LE(used, estimate + slack) << "estimate " << estimate;
  EXPECT_LE(estimate, 2 * used + slack) << "used " << used;
}

// The host's scan of the non-zero bitmap against a bit-by-bit one (no GPU needed):
// word boundaries, a partial last word whose stray high bits must not count, and
// more words than one task takes.
TEST(NonzeroTerms, SetBitsEqualABitByBitScan) {
  std::mt19937_64 rng(73);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{31}, std::size_t{32}, std::size_t{33},
                        std::size_t{1000}, (std::size_t{1} << 20) + 17}) {
    std::vector<std::uint32_t> words((n + 31) / 32 + 1);
    for (auto& w : words) w = static_cast<std::uint32_t>(rng()) & static_cast<std::uint32_t>(rng());
    std::vector<std::uint32_t> expected;
    for (std::size_t i = 0; i < n; ++i) {
      if ((words[i / 32] >> (i % 32)) & 1) expected.push_back(static_cast<std::uint32_t>(i));
    }
    const SetBits got = set_bits(words, n);
    EXPECT_EQ(got.count, expected.size()) << "n " << n;
    // A list only when some bit is clear (n = 1 may draw its one bit set).
    EXPECT_EQ(got.indices, expected.size() == n ? std::vector<std::uint32_t>{} : expected) << "n " << n;
  }
  // Every bit set: counted, and no list is written.
  const std::vector<std::uint32_t> full(40, ~0u);
  for (std::size_t n : {std::size_t{32}, std::size_t{1000}, std::size_t{1280}}) {
    const SetBits all = set_bits(full, n);
    EXPECT_EQ(all.count, n);
    EXPECT_TRUE(all.indices.empty());
  }
}

}  // namespace
}  // namespace zkpipe::gpu
