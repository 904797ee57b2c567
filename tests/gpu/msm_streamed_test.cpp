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
#include "gpu/device_memory.hpp"
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

// The first points of the next sum, copied ahead (under the last chunk of the sum
// before, or by prefetch()), serve only a sum over the same page-locked bases: any
// other sum drops them, and every sum stays equal to the host's.
TYPED_TEST(GpuStreamedMsm, PrefetchedPointsServeOnlyTheirOwnBases) {
  using Affine = ec::Affine<TypeParam>;
  const std::size_t n = 2000;
  const auto first_points = ec::msm_testing::random_points<TypeParam>(n, 83);
  const auto second_points = ec::msm_testing::random_points<TypeParam>(n, 84);
  const PinnedPoints<TypeParam> first(first_points, false, memory::BufferLedger::process());
  const PinnedPoints<TypeParam> second(second_points, false, memory::BufferLedger::process());
  const auto scalars = ec::msm_testing::witness_like_scalars(n, 30, 30, 85);
  const DeviceBuffer<Fr> d = this->upload(scalars);
  const auto expected = [&](const std::vector<Affine>& points, std::size_t m) {
    return ec::msm<TypeParam>(std::span<const Affine>(points).first(m), std::span<const Fr>(scalars).first(m));
  };
  StreamedMsm<TypeParam> streamed(700);
  DeviceMsm& msm = *this->msm_;
  // A new StreamedMsm has no buffer to fill: nothing is prefetched, nothing allocated.
  streamed.prefetch(msm, second, n);
  EXPECT_EQ(streamed.prefetched_points(), 0u);
  EXPECT_EQ(streamed.device_bytes(), 0u);

  // Chained: the second sum's first 700 points cross under the first sum's last chunk.
  EXPECT_EQ(streamed.sum(msm, first, d.data(), n, nullptr, 0, &second, n), expected(first_points, n));
  EXPECT_EQ(streamed.prefetched_points(), 700u);
  EXPECT_EQ(streamed.sum(msm, second, d.data(), n, nullptr), expected(second_points, n));
  EXPECT_EQ(streamed.prefetched_points(), 0u);

  // Prefetched for the second bases, then a sum over the first: dropped, both right.
  streamed.prefetch(msm, second, n);
  EXPECT_EQ(streamed.prefetched_points(), 700u);
  EXPECT_EQ(streamed.sum(msm, first, d.data(), n, nullptr), expected(first_points, n));
  EXPECT_EQ(streamed.prefetched_points(), 0u);
  EXPECT_EQ(streamed.sum(msm, second, d.data(), n, nullptr), expected(second_points, n));

  // A sum over fewer points than were prefetched uses only its own; a chained next of
  // fewer points than a chunk prefetches only those.
  streamed.prefetch(msm, first, n);
  EXPECT_EQ(streamed.sum(msm, first, d.data(), 300, nullptr, 0, &second, 5), expected(first_points, 300));
  EXPECT_EQ(streamed.prefetched_points(), 5u);
  EXPECT_EQ(streamed.sum(msm, second, d.data(), 5, nullptr), expected(second_points, 5));

  // A staged sum (from the host points) after a prefetch drops it and refills the buffers.
  streamed.prefetch(msm, first, n);
  EXPECT_EQ(this->streamed_sum(streamed, second_points, scalars), expected(second_points, n));
  EXPECT_EQ(streamed.prefetched_points(), 0u);
  EXPECT_EQ(streamed.sum(msm, first, d.data(), n, nullptr), expected(first_points, n));
  EXPECT_THROW(streamed.prefetch(msm, first, n + 1), std::invalid_argument);
  EXPECT_THROW(streamed.sum(msm, first, d.data(), n, nullptr, 0, &second, n + 1), std::invalid_argument);
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

// A sum whose general terms are sorted in slices (the bound a streamed chunk's
// scratch is sized by) is the same point as one sort's: slices of one term, of a
// few, of nearly all, and more than there are; random scalars, a witness's mix and
// the edge cases.
TYPED_TEST(GpuStreamedMsm, GeneralTermsSortedInSlicesEqualOneSort) {
  const std::size_t n = 1000;
  auto points = ec::msm_testing::random_points<TypeParam>(n, 66);
  std::vector<Fr> edge = ec::msm_testing::random_scalars(n, 67);
  ec::msm_testing::mix_in_edge_cases(points, edge);
  for (const std::vector<Fr>& scalars :
       {ec::msm_testing::random_scalars(n, 68), ec::msm_testing::witness_like_scalars(n, 40, 40, 69), edge}) {
    const DeviceBuffer<Fr> d = this->upload(scalars);
    PinnedStaging staging;
    const DeviceBases<TypeParam> bases(points, staging, nullptr);
    const auto expected = ec::msm<TypeParam>(points, scalars);
    for (std::size_t slice : {1, 7, 100, 999, 5000}) {
      EXPECT_EQ(this->msm_->sum(bases, d.data(), n, nullptr, 0, slice), expected) << "slices of " << slice;
    }
    EXPECT_EQ(this->msm_->sum(bases, d.data(), n, nullptr, 9, 64), expected) << "a fixed window";
  }
}

TYPED_TEST(GpuStreamedMsm, CountsTheGeneralTerms) {
  std::vector<Fr> scalars = ec::msm_testing::witness_like_scalars(5000, 30, 50, 70);
  scalars[0] = -Fr::one();
  scalars[1] = Fr::one() + Fr::one();
  const auto general = static_cast<std::size_t>(std::count_if(
      scalars.begin(), scalars.end(), [](const Fr& s) { return !s.is_zero() && s != Fr::one(); }));
  ASSERT_GT(general, 0u);
  ASSERT_LT(general, scalars.size());
  const DeviceBuffer<Fr> d = this->upload(scalars);
  EXPECT_EQ(this->msm_->count_general_terms(d.data(), scalars.size(), nullptr), general);
  EXPECT_EQ(this->msm_->count_general_terms(d.data(), 2, nullptr), 2u);
  EXPECT_EQ(this->msm_->count_general_terms(d.data(), 0, nullptr), 0u);
}

// A sum of a witness's scalars (few general terms) gets chunks bounded by their
// points, larger than a sum of general terms gets in the same memory, and a bound on
// its sorts below the chunk; sizes far beyond the device, so that memory decides.
TYPED_TEST(GpuStreamedMsm, AWitnessSumGetsLargerChunksThanAGeneralOne) {
  const StreamedMsm<TypeParam> streamed;
  const std::size_t n = std::size_t{1} << 34;
  const DeviceMsm msm;
  const auto all_general = streamed.chunk_shape(msm, n, n, false);
  const auto witness = streamed.chunk_shape(msm, n, n / 64, false);
  EXPECT_EQ(all_general.sorted_terms, 0u) << "every term general: no bound on the sort";
  EXPECT_GT(witness.points, all_general.points);
  EXPECT_GT(witness.sorted_terms, 0u);
  EXPECT_LT(witness.sorted_terms, witness.points);
  EXPECT_LE(witness.points * sizeof(AffineWords<TypeParam>) * 2, available_device_bytes(
                                                                     memory::BufferLedger::process(), 0));
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
