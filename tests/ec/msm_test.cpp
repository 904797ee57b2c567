// MSM checked against the naive sum of double-and-add products, plus consistency
// checks (threads, precomputed tables, linearity) on sizes too large for the naive sum.
#include "ec/msm/msm.hpp"

#include <gmp.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <stdexcept>
#include <vector>

#include "ec/generators.hpp"
#include "ec/msm/digits.hpp"
#include "ec/msm/plan.hpp"
#include "ec/msm/precomputed.hpp"
#include "ec/msm/testing.hpp"

namespace zkpipe::ec {
namespace {

using ff::Fr;

template <class Curve>
Jacobian<Curve> naive_msm(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars) {
  Jacobian<Curve> sum = Jacobian<Curve>::identity();
  for (std::size_t i = 0; i < bases.size(); ++i) {
    const ff::Limbs<4> k = scalars[i].to_canonical();
    Jacobian<Curve> product = Jacobian<Curve>::identity();
    for (std::size_t bit = 256; bit-- > 0;) {
      product = product.dbl();
      if (ff::limbs_bit(k, bit)) product += bases[i];
    }
    sum += product;
  }
  return sum;
}

template <class Curve>
Jacobian<Curve> run_msm(const std::vector<Affine<Curve>>& bases, const std::vector<Fr>& scalars,
                        const MsmOptions& options = {}) {
  return msm<Curve>(bases, scalars, options);
}

template <class Curve>
void expect_matches_naive(const std::vector<Affine<Curve>>& bases, const std::vector<Fr>& scalars,
                          const MsmOptions& options = {}) {
  EXPECT_EQ(run_msm(bases, scalars, options), naive_msm<Curve>(bases, scalars))
      << Curve::kName << " n=" << bases.size() << " c=" << options.window_bits;
}

Fr fr_from_mpz(const mpz_t value) {
  ff::Limbs<4> limbs{};
  mpz_export(limbs.data(), nullptr, -1, sizeof(ff::u64), 0, 0, value);
  return *Fr::from_canonical(limbs);
}

// --- signed digits -------------------------------------------------------------------

TEST(MsmDigits, DigitsRecomposeTheScalarAndStayInRange) {
  std::mt19937_64 rng(1);
  std::vector<Fr> scalars = msm_testing::random_scalars(64, 2);
  scalars.push_back(Fr::zero());
  scalars.push_back(Fr::one());
  scalars.push_back(-Fr::one());  // r - 1: the largest scalar, top bits set
  scalars.push_back(Fr::from_u64(2).pow(254));
  for (unsigned bits = WindowLayout::kMinBits; bits <= WindowLayout::kMaxBits; ++bits) {
    const WindowLayout layout(bits);
    const std::int64_t half = std::int64_t{1} << (bits - 1);
    for (const Fr& s : scalars) {
      const ff::Limbs<4> k = s.to_canonical();
      RecodedScalar recoded{k[0], k[1], k[2], k[3], 0};
      layout.recode(recoded);
      mpz_t sum, term;
      mpz_inits(sum, term, nullptr);
      for (unsigned w = layout.windows(); w-- > 0;) {
        const std::int64_t d = layout.digit(recoded, w);
        ASSERT_LE(d, half);
        ASSERT_GT(d, -half);
        mpz_mul_2exp(sum, sum, bits);
        mpz_set_si(term, d);
        mpz_add(sum, sum, term);
      }
      EXPECT_TRUE(fr_from_mpz(sum) == s) << "c=" << bits;
      mpz_clears(sum, term, nullptr);
    }
  }
}

// --- the test points are what they claim ----------------------------------------------

template <class Curve>
void expect_points_in_subgroup(std::size_t n) {
  const auto points = msm_testing::random_points<Curve>(n, 3);
  const Affine<Curve> g = msm_testing::generator<Curve>();
  EXPECT_TRUE(g.is_on_curve());
  EXPECT_TRUE(msm_testing::multiply(g, kGroupOrder).is_identity());
  for (std::size_t i = 0; i < points.size(); ++i) {
    ASSERT_TRUE(points[i].is_on_curve());
    ASSERT_FALSE(points[i].is_identity());
  }
  EXPECT_TRUE(msm_testing::multiply(points.back(), kGroupOrder).is_identity());
  EXPECT_FALSE(points[0] == points[1]);
}

TEST(MsmTesting, RandomPointsAreDistinctSubgroupPoints) {
  expect_points_in_subgroup<G1Curve>(5000);
  expect_points_in_subgroup<G2Curve>(100);
}

// --- against the naive sum --------------------------------------------------------------

TEST(Msm, SmallSizesMatchNaive) {
  for (std::size_t n : {0, 1, 2, 3, 5, 17, 64}) {
    expect_matches_naive(msm_testing::random_points<G1Curve>(n, n),
                         msm_testing::random_scalars(n, 100 + n));
  }
}

constexpr MsmBuckets kBucketKinds[] = {MsmBuckets::xyzz, MsmBuckets::batch_affine,
                                       MsmBuckets::batch_affine_scalar};

TEST(Msm, EveryWindowSizeAndBucketKindMatchesNaive) {
  const auto bases = msm_testing::random_points<G1Curve>(24, 4);
  auto scalars = msm_testing::random_scalars(24, 5);
  scalars[0] = -Fr::one();
  for (MsmBuckets kind : kBucketKinds) {
    for (unsigned bits = 1; bits <= 14; ++bits) {
      expect_matches_naive(bases, scalars,
                           {.max_threads = 1, .window_bits = bits, .buckets = kind});
    }
  }
}

// The vectorized batches (where the processor has AVX-512 IFMA) and the scalar ones.
constexpr MsmBuckets kBatchAffineKinds[] = {MsmBuckets::batch_affine, MsmBuckets::batch_affine_scalar};

// `terms` terms over 8 points and 5 scalars: every batch meets its own bucket again
// (waiting or overflow), equal points (doubling) and opposite points (cancelling).
template <class Curve>
void expect_shared_buckets_match_naive(std::size_t terms, std::uint64_t seed,
                                       std::initializer_list<unsigned> window_bits) {
  const auto points = msm_testing::random_points<Curve>(8, seed);
  const auto values = msm_testing::random_scalars(5, seed + 1);
  std::vector<Affine<Curve>> bases;
  std::vector<Fr> scalars;
  for (std::size_t i = 0; i < terms; ++i) {
    bases.push_back(i % 3 == 0 ? -points[i % 8] : points[i % 8]);
    scalars.push_back(values[i % 5]);
  }
  for (MsmBuckets kind : kBatchAffineKinds) {
    for (unsigned bits : window_bits) {
      expect_matches_naive(bases, scalars, {.max_threads = 1, .window_bits = bits, .buckets = kind});
    }
  }
}

TEST(Msm, BatchAffineHandlesSharedBucketsDoublingAndCancelling) {
  expect_shared_buckets_match_naive<G1Curve>(300, 80, {4u, 10u, 12u});
}

TEST(Msm, FoldedBucketReductionMatchesNaive) {
  // Enough terms that most of the 2^(c-1) buckets are filled when they are folded
  // into the two short sums (c >= 9), including the top digit 2^(c-1).
  const auto bases = msm_testing::random_points<G1Curve>(3000, 82);
  auto scalars = msm_testing::random_scalars(3000, 83);
  scalars[1] = Fr::from_u64(256);
  scalars[2] = -Fr::from_u64(256);
  const auto g2_bases = msm_testing::random_points<G2Curve>(600, 84);
  const auto g2_scalars = msm_testing::random_scalars(600, 85);
  for (MsmBuckets kind : kBatchAffineKinds) {
    for (unsigned bits : {9u, 10u, 13u}) {
      expect_matches_naive(bases, scalars, {.max_threads = 1, .window_bits = bits, .buckets = kind});
    }
    expect_matches_naive(g2_bases, g2_scalars, {.max_threads = 1, .window_bits = 9, .buckets = kind});
  }
}

TEST(Msm, G2BatchAffineHandlesSharedBucketsDoublingAndCancelling) {
  expect_shared_buckets_match_naive<G2Curve>(200, 86, {10u});
}

TEST(Msm, SizesAroundAutomaticWindowThresholdsMatchNaive) {
  // The smallest sizes at which the automatic window size changes, and one either side.
  std::vector<std::size_t> sizes;
  unsigned previous = detail::choose_window_layout(1, 1, 1).bits();
  for (std::size_t n = 2; n <= 160; ++n) {
    const unsigned bits = detail::choose_window_layout(n, 1, 1).bits();
    if (bits != previous) sizes.insert(sizes.end(), {n - 1, n, n + 1});
    previous = bits;
  }
  ASSERT_GE(sizes.size(), 6u);
  const auto bases = msm_testing::random_points<G1Curve>(161, 6);
  const auto scalars = msm_testing::random_scalars(161, 7);
  for (std::size_t n : sizes) {
    const std::vector<Affine<G1Curve>> b(bases.begin(),
                                         bases.begin() + static_cast<std::ptrdiff_t>(n));
    const std::vector<Fr> s(scalars.begin(), scalars.begin() + static_cast<std::ptrdiff_t>(n));
    expect_matches_naive(b, s, {.max_threads = 1});
  }
}

TEST(Msm, AllZeroScalarsGiveIdentity) {
  const auto bases = msm_testing::random_points<G1Curve>(100, 8);
  EXPECT_TRUE(run_msm(bases, std::vector<Fr>(100, Fr::zero())).is_identity());
}

TEST(Msm, AllOneScalarsSumTheBases) {
  const auto bases = msm_testing::random_points<G1Curve>(300, 9);
  Jacobian<G1Curve> sum = Jacobian<G1Curve>::identity();
  for (const auto& p : bases) sum += p;
  EXPECT_EQ(run_msm(bases, std::vector<Fr>(300, Fr::one())), sum);
}

TEST(Msm, MixedZeroOneAndOtherScalarsMatchNaive) {
  const auto bases = msm_testing::random_points<G1Curve>(200, 10);
  expect_matches_naive(bases, msm_testing::witness_like_scalars(200, 50, 50, 11));
  expect_matches_naive(bases, msm_testing::witness_like_scalars(200, 45, 45, 12));
}

TEST(Msm, RepeatedIdenticalPointsMatchNaive) {
  const auto p = msm_testing::random_points<G1Curve>(1, 13)[0];
  const std::vector<Affine<G1Curve>> bases(40, p);
  // Equal scalars put the same point in the same bucket repeatedly (the doubling case).
  for (MsmBuckets kind : kBucketKinds) {
    const MsmOptions options{.buckets = kind};
    expect_matches_naive(bases, std::vector<Fr>(40, Fr::from_u64(12345)), options);
    expect_matches_naive(bases, msm_testing::random_scalars(40, 14), options);
    expect_matches_naive(bases, std::vector<Fr>(40, Fr::one()), options);
  }
}

TEST(Msm, IdentityBasesContributeNothing) {
  auto bases = msm_testing::random_points<G1Curve>(30, 15);
  auto scalars = msm_testing::random_scalars(30, 16);
  for (std::size_t i = 0; i < 30; i += 3) bases[i] = Affine<G1Curve>::identity();
  scalars[3] = Fr::one();
  expect_matches_naive(bases, scalars);
  const std::vector<Affine<G1Curve>> all_identity(10, Affine<G1Curve>::identity());
  EXPECT_TRUE(run_msm(all_identity, msm_testing::random_scalars(10, 17)).is_identity());
}

TEST(Msm, OppositePointsCancel) {
  const auto points = msm_testing::random_points<G1Curve>(20, 18);
  std::vector<Affine<G1Curve>> bases;
  std::vector<Fr> scalars;
  const auto k = msm_testing::random_scalars(20, 19);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Fr s = i % 4 == 0 ? Fr::one() : k[i];
    bases.insert(bases.end(), {points[i], -points[i]});
    scalars.insert(scalars.end(), {s, s});
  }
  for (MsmBuckets kind : kBucketKinds) {
    EXPECT_TRUE(run_msm(bases, scalars, {.buckets = kind}).is_identity());
    // k·P + (−k)·P also cancels: opposite digits meet in the same buckets.
    EXPECT_TRUE(
        run_msm<G1Curve>({points[0], points[0]}, {k[0], -k[0]}, {.buckets = kind}).is_identity());
  }
}

TEST(Msm, G2MatchesNaive) {
  for (std::size_t n : {0, 1, 2, 3, 21}) {
    expect_matches_naive(msm_testing::random_points<G2Curve>(n, 20 + n),
                         msm_testing::random_scalars(n, 30 + n));
  }
  const auto bases = msm_testing::random_points<G2Curve>(40, 40);
  for (MsmBuckets kind : kBucketKinds) {
    expect_matches_naive(bases, msm_testing::witness_like_scalars(40, 40, 40, 41),
                         {.window_bits = 11, .buckets = kind});
  }
}

TEST(Msm, MismatchedSizesAndBadWindowSizesThrow) {
  const auto bases = msm_testing::random_points<G1Curve>(3, 42);
  EXPECT_THROW(run_msm(bases, msm_testing::random_scalars(2, 43)), std::invalid_argument);
  const auto scalars = msm_testing::random_scalars(3, 44);
  EXPECT_THROW(run_msm(bases, scalars, {.window_bits = 21}), std::invalid_argument);
}

// --- consistency on larger sizes ---------------------------------------------------------

TEST(Msm, ThreadedEqualsSingleThreaded) {
  const auto bases = msm_testing::random_points<G1Curve>(3000, 45);
  const auto scalars = msm_testing::witness_like_scalars(3000, 20, 20, 46);
  const auto single = run_msm(bases, scalars, {.max_threads = 1});
  EXPECT_EQ(run_msm(bases, scalars), single);
  EXPECT_EQ(run_msm(bases, scalars, {.max_threads = 3}), single);
  for (MsmBuckets kind : kBucketKinds) {
    EXPECT_EQ(run_msm(bases, scalars, {.window_bits = 12, .buckets = kind}), single);
  }
}

TEST(Msm, IsLinearInTheScalars) {
  const auto bases = msm_testing::random_points<G1Curve>(2000, 47);
  const auto a = msm_testing::random_scalars(2000, 48);
  const auto b = msm_testing::random_scalars(2000, 49);
  std::vector<Fr> sum(2000);
  for (std::size_t i = 0; i < sum.size(); ++i) sum[i] = a[i] + b[i];
  EXPECT_EQ(run_msm(bases, a) + run_msm(bases, b), run_msm(bases, sum));
}

template <class Curve>
void expect_precomputed_equals_plain(std::size_t n, unsigned copies, unsigned bits) {
  auto bases = msm_testing::random_points<Curve>(n, 50 + copies);
  bases[n / 2] = Affine<Curve>::identity();
  const auto scalars = msm_testing::witness_like_scalars(n, 30, 30, 60 + copies);
  const PrecomputedBases<Curve> table(bases, copies, {.window_bits = bits});
  EXPECT_EQ(msm(table, scalars), run_msm(bases, scalars))
      << Curve::kName << " copies=" << copies << " c=" << bits;
  EXPECT_EQ(msm(table, scalars, {.max_threads = 1}), run_msm(bases, scalars));
}

TEST(MsmPrecomputed, EqualsPlain) {
  expect_precomputed_equals_plain<G1Curve>(1500, 0, 0);
  expect_precomputed_equals_plain<G1Curve>(1500, 1, 0);
  expect_precomputed_equals_plain<G1Curve>(1500, 3, 9);
  expect_precomputed_equals_plain<G1Curve>(1500, 5, 0);
  expect_precomputed_equals_plain<G2Curve>(100, 0, 0);
}

TEST(MsmPrecomputed, MatchesNaiveAndReportsItsShape) {
  const auto bases = msm_testing::random_points<G1Curve>(37, 70);
  const auto scalars = msm_testing::random_scalars(37, 71);
  const auto expected = naive_msm<G1Curve>(bases, scalars);
  for (unsigned copies : {0u, 1u, 2u, 7u}) {
    const PrecomputedBases<G1Curve> table(bases, copies, {.window_bits = 6});
    EXPECT_EQ(msm(table, scalars, {.buckets = MsmBuckets::batch_affine}), expected);
    // c = 6: 43 windows.
    EXPECT_GE(table.copies() * table.passes(), 43u);
    EXPECT_EQ(table.passes(), copies == 0 ? 1u : (43 + copies - 1) / copies);
    EXPECT_EQ(table.memory_bytes(), 37 * table.copies() * sizeof(Affine<G1Curve>));
    EXPECT_EQ(msm(table, scalars), expected) << "copies=" << copies;
  }
  EXPECT_THROW(msm(PrecomputedBases<G1Curve>(bases), msm_testing::random_scalars(36, 72)),
               std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::ec
