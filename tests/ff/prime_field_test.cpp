// Fp and Fr against GMP: every operation on edge values and on 10^4 random inputs.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gmp_oracle.hpp"

namespace zkpipe::ff {
namespace {

using testing::Mpz;
using testing::mod_add;
using testing::mod_inv;
using testing::mod_mul;
using testing::mod_pow;
using testing::mod_sub;

constexpr int kFieldCases = 10000;

template <class Field>
class PrimeFieldTest : public ::testing::Test {
 protected:
  static constexpr std::size_t N = Field::kLimbs;
  using Repr = typename Field::Repr;

  PrimeFieldTest() : p_(Mpz::from_limbs(Field::kModulus)) {}

  Mpz to_mpz(const Field& x) const { return Mpz::from_limbs(x.to_canonical()); }

  Field from_mpz(const Mpz& a) const {
    auto x = Field::from_canonical(a.template to_limbs<N>());
    EXPECT_TRUE(x.has_value()) << a.str();
    return x.value_or(Field::zero());
  }

  Mpz sub_small(const Mpz& a, unsigned long k) const {
    Mpz r;
    mpz_sub_ui(r.get(), a.get(), k);
    return r;
  }

  // 0, 1, 2, p-1, p-2, (p-1)/2, (p+1)/2, r-1 (r the scalar-field order, reduced
  // mod p), 2^(64k)-1 for k < N (all-ones low limbs), and the largest values below
  // p whose low limbs are all ones: top limb of p minus one, then all ones.
  std::vector<Mpz> edges() const {
    std::vector<Mpz> e{Mpz(0), Mpz(1), Mpz(2), sub_small(p_, 1), sub_small(p_, 2)};
    Mpz half;
    mpz_fdiv_q_2exp(half.get(), sub_small(p_, 1).get(), 1);
    e.push_back(half);
    Mpz half_up;
    mpz_add_ui(half_up.get(), half.get(), 1);
    e.push_back(half_up);
    Mpz r_minus_1 = sub_small(Mpz::from_limbs(FrParams::kModulus), 1);
    mpz_mod(r_minus_1.get(), r_minus_1.get(), p_.get());
    e.push_back(r_minus_1);
    for (std::size_t k = 1; k < N; ++k) {
      Mpz ones;
      mpz_ui_pow_ui(ones.get(), 2, 64 * k);
      mpz_sub_ui(ones.get(), ones.get(), 1);
      e.push_back(ones);
    }
    Repr below{};
    for (auto& limb : below) limb = ~u64{0};
    below[N - 1] = Field::kModulus[N - 1] - 1;
    e.push_back(Mpz::from_limbs(below));
    return e;
  }

  // Edge values followed by kFieldCases uniform residues (drawn independently of
  // Field::random: full-width random integers reduced by GMP).
  std::vector<Mpz> values(std::uint64_t seed) const {
    std::vector<Mpz> v = edges();
    std::mt19937_64 rng(seed);
    for (int i = 0; i < kFieldCases; ++i) {
      Mpz a = Mpz::from_limbs(testing::random_limbs<N>(rng));
      mpz_mod(a.get(), a.get(), p_.get());
      v.push_back(a);
    }
    return v;
  }

  // All edge pairs, then random pairs.
  std::vector<std::pair<Mpz, Mpz>> pairs(std::uint64_t seed) const {
    std::vector<std::pair<Mpz, Mpz>> out;
    const std::vector<Mpz> e = edges();
    for (const Mpz& a : e) {
      for (const Mpz& b : e) out.emplace_back(a, b);
    }
    const std::vector<Mpz> v = values(seed);
    for (std::size_t i = 0; i < v.size(); ++i) out.emplace_back(v[i], v[(i * 7919 + 13) % v.size()]);
    return out;
  }

  Mpz p_;
};

using PrimeFields = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(PrimeFieldTest, PrimeFields);

TYPED_TEST(PrimeFieldTest, AddSubNegDbl) {
  const Mpz& p = this->p_;
  for (const auto& [a, b] : this->pairs(1)) {
    const TypeParam x = this->from_mpz(a);
    const TypeParam y = this->from_mpz(b);
    ASSERT_EQ(this->to_mpz(x + y), mod_add(a, b, p)) << a.str() << " + " << b.str();
    ASSERT_EQ(this->to_mpz(x - y), mod_sub(a, b, p)) << a.str() << " - " << b.str();
    ASSERT_EQ(this->to_mpz(-x), mod_sub(Mpz(0), a, p)) << a.str();
    ASSERT_EQ(this->to_mpz(x.dbl()), mod_add(a, a, p)) << a.str();
  }
}

TYPED_TEST(PrimeFieldTest, MulSquare) {
  const Mpz& p = this->p_;
  for (const auto& [a, b] : this->pairs(2)) {
    const TypeParam x = this->from_mpz(a);
    const TypeParam y = this->from_mpz(b);
    ASSERT_EQ(this->to_mpz(x * y), mod_mul(a, b, p)) << a.str() << " * " << b.str();
    ASSERT_EQ(this->to_mpz(x.square()), mod_mul(a, a, p)) << a.str();
  }
}

TYPED_TEST(PrimeFieldTest, CompoundAssignmentMatchesBinaryOperators) {
  for (const auto& [a, b] : this->pairs(3)) {
    const TypeParam x = this->from_mpz(a);
    const TypeParam y = this->from_mpz(b);
    TypeParam s = x, d = x, m = x;
    s += y;
    d -= y;
    m *= y;
    ASSERT_EQ(s, x + y);
    ASSERT_EQ(d, x - y);
    ASSERT_EQ(m, x * y);
  }
}

TYPED_TEST(PrimeFieldTest, Inverse) {
  const Mpz& p = this->p_;
  for (const Mpz& a : this->values(4)) {
    const TypeParam x = this->from_mpz(a);
    ASSERT_EQ(this->to_mpz(x.inverse()), mod_inv(a, p)) << a.str();
  }
}

TYPED_TEST(PrimeFieldTest, InverseCt) {
  const Mpz& p = this->p_;
  for (const Mpz& a : this->values(5)) {
    const TypeParam x = this->from_mpz(a);
    ASSERT_EQ(this->to_mpz(x.inverse_ct()), mod_inv(a, p)) << a.str();
  }
}

TYPED_TEST(PrimeFieldTest, InverseOfZeroIsZero) {
  EXPECT_TRUE(TypeParam::zero().inverse().is_zero());
  EXPECT_TRUE(TypeParam::zero().inverse_ct().is_zero());
}

TYPED_TEST(PrimeFieldTest, PowLimbExponent) {
  constexpr std::size_t N = TypeParam::kLimbs;
  const Mpz& p = this->p_;
  std::mt19937_64 rng(6);
  std::vector<Mpz> exponents{Mpz(0), Mpz(1), this->sub_small(p, 1), this->sub_small(p, 2)};
  const std::vector<Mpz> bases = this->values(7);
  for (std::size_t i = 0; i < bases.size(); ++i) {
    const Limbs<N> e = i < exponents.size() ? exponents[i].template to_limbs<N>()
                                            : testing::random_limbs<N>(rng);
    const TypeParam x = this->from_mpz(bases[i]);
    ASSERT_EQ(this->to_mpz(x.pow(e)), mod_pow(bases[i], Mpz::from_limbs(e), p)) << bases[i].str();
  }
}

TYPED_TEST(PrimeFieldTest, PowU64Exponent) {
  const Mpz& p = this->p_;
  std::mt19937_64 rng(8);
  for (const Mpz& a : this->values(9)) {
    const u64 e = rng();
    const TypeParam x = this->from_mpz(a);
    ASSERT_EQ(this->to_mpz(x.pow(e)), mod_pow(a, Mpz::from_limbs(Limbs<1>{e}), p));
    ASSERT_TRUE(x.pow(u64{0}).is_one());
  }
}

TYPED_TEST(PrimeFieldTest, Legendre) {
  const Mpz& p = this->p_;
  for (const Mpz& a : this->values(10)) {
    ASSERT_EQ(this->from_mpz(a).legendre(), mpz_legendre(a.get(), p.get())) << a.str();
  }
}

TYPED_TEST(PrimeFieldTest, SqrtGivesValidRootsOrNothing) {
  const Mpz& p = this->p_;
  int residues = 0, non_residues = 0;
  const std::vector<Mpz> v = this->values(11);
  for (std::size_t i = 0; i < v.size(); ++i) {
    // Every other input is a square by construction, the rest are random.
    const Mpz a = i % 2 ? mod_mul(v[i], v[i], p) : v[i];
    const auto root = this->from_mpz(a).sqrt();
    if (mpz_legendre(a.get(), p.get()) == -1) {
      ASSERT_FALSE(root.has_value()) << a.str();
      ++non_residues;
      continue;
    }
    ASSERT_TRUE(root.has_value()) << a.str();
    const Mpz r = this->to_mpz(*root);
    const Mpz minus_r = mod_sub(Mpz(0), r, p);
    ASSERT_EQ(mod_mul(r, r, p), a) << a.str();
    ASSERT_EQ(mod_mul(minus_r, minus_r, p), a) << a.str();
    ++residues;
  }
  EXPECT_GT(residues, kFieldCases / 2);
  EXPECT_GT(non_residues, kFieldCases / 8);
}

TYPED_TEST(PrimeFieldTest, FromCanonicalAcceptsExactlyValuesBelowModulus) {
  constexpr std::size_t N = TypeParam::kLimbs;
  for (const Mpz& a : this->values(12)) {
    const auto x = TypeParam::from_canonical(a.template to_limbs<N>());
    ASSERT_TRUE(x.has_value()) << a.str();
    ASSERT_EQ(this->to_mpz(*x), a);
  }
  Limbs<N> all_ones{};
  for (auto& limb : all_ones) limb = ~u64{0};
  EXPECT_FALSE(TypeParam::from_canonical(TypeParam::kModulus).has_value());
  EXPECT_FALSE(TypeParam::from_canonical(all_ones).has_value());
  Limbs<N> p_plus_1 = TypeParam::kModulus;
  p_plus_1[0] += 1;
  EXPECT_FALSE(TypeParam::from_canonical(p_plus_1).has_value());
  // Random values in [p, 2^(64N)).
  std::mt19937_64 rng(13);
  Mpz top;
  mpz_ui_pow_ui(top.get(), 2, 64 * N);
  Mpz span;
  mpz_sub(span.get(), top.get(), this->p_.get());
  for (int i = 0; i < kFieldCases; ++i) {
    Mpz a = Mpz::from_limbs(testing::random_limbs<N>(rng));
    mpz_mod(a.get(), a.get(), span.get());
    mpz_add(a.get(), a.get(), this->p_.get());
    ASSERT_FALSE(TypeParam::from_canonical(a.template to_limbs<N>()).has_value()) << a.str();
  }
}

TYPED_TEST(PrimeFieldTest, FromReducedReducesAnyWidthValue) {
  constexpr std::size_t N = TypeParam::kLimbs;
  const Mpz& p = this->p_;
  std::mt19937_64 rng(14);
  std::vector<Limbs<N>> inputs;
  Limbs<N> all_ones{};
  for (auto& limb : all_ones) limb = ~u64{0};
  inputs.push_back(all_ones);
  inputs.push_back(TypeParam::kModulus);
  for (const Mpz& a : this->edges()) inputs.push_back(a.template to_limbs<N>());
  for (int i = 0; i < kFieldCases; ++i) inputs.push_back(testing::random_limbs<N>(rng));
  for (const Limbs<N>& in : inputs) {
    Mpz expected = Mpz::from_limbs(in);
    mpz_mod(expected.get(), expected.get(), p.get());
    ASSERT_EQ(this->to_mpz(TypeParam::from_reduced(in)), expected) << Mpz::from_limbs(in).str();
  }
}

TYPED_TEST(PrimeFieldTest, BytesRoundTripIsBigEndianCanonical) {
  constexpr std::size_t kBytes = TypeParam::kBytes;
  for (const Mpz& a : this->values(15)) {
    const TypeParam x = this->from_mpz(a);
    std::array<std::uint8_t, kBytes> bytes{};
    x.to_bytes_be(bytes);
    std::array<std::uint8_t, kBytes> expected{};
    std::size_t count = 0;
    std::array<std::uint8_t, kBytes> packed{};
    mpz_export(packed.data(), &count, 1, 1, 1, 0, a.get());
    std::copy(packed.begin(), packed.begin() + count, expected.end() - count);
    ASSERT_EQ(bytes, expected) << a.str();
    const auto back = TypeParam::from_bytes_be(bytes);
    ASSERT_TRUE(back.has_value());
    ASSERT_EQ(*back, x);
  }
  std::array<std::uint8_t, kBytes> p_bytes{};
  limbs_to_be_bytes<TypeParam::kLimbs>(TypeParam::kModulus, p_bytes);
  EXPECT_FALSE(TypeParam::from_bytes_be(p_bytes).has_value());
}

TYPED_TEST(PrimeFieldTest, LexicographicallyLargestMeansAboveHalf) {
  Mpz half;
  mpz_fdiv_q_2exp(half.get(), this->sub_small(this->p_, 1).get(), 1);
  for (const Mpz& a : this->values(16)) {
    ASSERT_EQ(this->from_mpz(a).is_lexicographically_largest(), half < a) << a.str();
  }
}

TYPED_TEST(PrimeFieldTest, ConstantsAndPredicates) {
  EXPECT_TRUE(TypeParam::one().is_one());
  EXPECT_TRUE(TypeParam::zero().is_zero());
  EXPECT_EQ(this->to_mpz(TypeParam::one()), Mpz(1));
  EXPECT_EQ(this->to_mpz(TypeParam::from_u64(12345)), Mpz(12345));
  EXPECT_EQ(TypeParam::kBits, mpz_sizeinbase(this->p_.get(), 2));
  // kR is 2^(64N) mod p, i.e. the Montgomery form of one.
  Mpz r;
  mpz_ui_pow_ui(r.get(), 2, 64 * TypeParam::kLimbs);
  mpz_mod(r.get(), r.get(), this->p_.get());
  EXPECT_EQ(Mpz::from_limbs(TypeParam::kR), r);
  std::mt19937_64 rng(17);
  for (int i = 0; i < 100; ++i) {
    const TypeParam x = TypeParam::random(rng);
    ASSERT_TRUE(limbs_less(x.mont(), TypeParam::kModulus));
  }
}

// Constant evaluation takes the portable product; the safegcd inverse is constexpr too.
static_assert(Fp::from_u64(6) * Fp::from_u64(7) == Fp::from_u64(42));
static_assert(Fr::from_u64(6) * Fr::from_u64(7) == Fr::from_u64(42));
static_assert((Fp::from_u64(3).inverse() * Fp::from_u64(3)).is_one());
static_assert((Fr::from_u64(5).inverse() * Fr::from_u64(5)).is_one());

}  // namespace
}  // namespace zkpipe::ff
