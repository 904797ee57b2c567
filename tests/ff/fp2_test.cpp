// Fp2 = Fp[u]/(u^2 + 1) against formulas evaluated on GMP integers, part by part.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ff/fp2.hpp"
#include "gmp_oracle.hpp"

namespace zkpipe::ff {
namespace {

using testing::Mpz;
using testing::mod_add;
using testing::mod_inv;
using testing::mod_mul;
using testing::mod_sub;

constexpr int kFp2Cases = 10000;

// An element of Fp2 as two GMP residues.
struct RefFp2 {
  Mpz re, im;
};

class Fp2Test : public ::testing::Test {
 protected:
  Fp2Test() : p_(Mpz::from_limbs(FpParams::kModulus)) {}

  Mpz to_mpz(const Fp& x) const { return Mpz::from_limbs(x.to_canonical()); }
  RefFp2 to_ref(const Fp2& x) const { return {to_mpz(x.c0), to_mpz(x.c1)}; }
  Fp from_mpz(const Mpz& a) const { return *Fp::from_canonical(a.to_limbs<6>()); }
  Fp2 from_ref(const RefFp2& a) const { return {from_mpz(a.re), from_mpz(a.im)}; }

  // (a + bu)(c + du) = (ac - bd) + (ad + bc)u
  RefFp2 mul(const RefFp2& x, const RefFp2& y) const {
    return {mod_sub(mod_mul(x.re, y.re, p_), mod_mul(x.im, y.im, p_), p_),
            mod_add(mod_mul(x.re, y.im, p_), mod_mul(x.im, y.re, p_), p_)};
  }

  // (a + bu)^{-1} = (a - bu) / (a^2 + b^2)
  RefFp2 inverse(const RefFp2& x) const {
    const Mpz n_inv = mod_inv(mod_add(mod_mul(x.re, x.re, p_), mod_mul(x.im, x.im, p_), p_), p_);
    return {mod_mul(x.re, n_inv, p_), mod_sub(Mpz(0), mod_mul(x.im, n_inv, p_), p_)};
  }

  // x^e by square and multiply over the bits of e.
  RefFp2 pow(const RefFp2& x, const Mpz& e) const {
    RefFp2 r{Mpz(1), Mpz(0)};
    for (std::size_t i = mpz_sizeinbase(e.get(), 2); i-- > 0;) {
      r = mul(r, r);
      if (mpz_tstbit(e.get(), i)) r = mul(r, x);
    }
    return r;
  }

  bool is_square(const RefFp2& x) const {
    const Mpz norm = mod_add(mod_mul(x.re, x.re, p_), mod_mul(x.im, x.im, p_), p_);
    return mpz_legendre(norm.get(), p_.get()) != -1;
  }

  static void expect_eq(const RefFp2& got, const RefFp2& want) {
    ASSERT_EQ(got.re, want.re) << got.re.str() << " vs " << want.re.str();
    ASSERT_EQ(got.im, want.im) << got.im.str() << " vs " << want.im.str();
  }

  // Parts drawn from {0, 1, p-1, (p-1)/2} crossed, then random elements.
  std::vector<RefFp2> values(std::uint64_t seed, int count = kFp2Cases) const {
    Mpz p_minus_1, half;
    mpz_sub_ui(p_minus_1.get(), p_.get(), 1);
    mpz_fdiv_q_2exp(half.get(), p_minus_1.get(), 1);
    const std::vector<Mpz> parts{Mpz(0), Mpz(1), p_minus_1, half};
    std::vector<RefFp2> v;
    for (const Mpz& a : parts) {
      for (const Mpz& b : parts) v.push_back({a, b});
    }
    std::mt19937_64 rng(seed);
    for (int i = 0; i < count; ++i) {
      Mpz a = Mpz::from_limbs(testing::random_limbs<6>(rng));
      Mpz b = Mpz::from_limbs(testing::random_limbs<6>(rng));
      mpz_mod(a.get(), a.get(), p_.get());
      mpz_mod(b.get(), b.get(), p_.get());
      v.push_back({a, b});
    }
    return v;
  }

  Mpz p_;
};

TEST_F(Fp2Test, AddSubNegDbl) {
  const auto v = values(31);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const RefFp2& a = v[i];
    const RefFp2& b = v[(i * 7919 + 3) % v.size()];
    const Fp2 x = from_ref(a), y = from_ref(b);
    expect_eq(to_ref(x + y), {mod_add(a.re, b.re, p_), mod_add(a.im, b.im, p_)});
    expect_eq(to_ref(x - y), {mod_sub(a.re, b.re, p_), mod_sub(a.im, b.im, p_)});
    expect_eq(to_ref(-x), {mod_sub(Mpz(0), a.re, p_), mod_sub(Mpz(0), a.im, p_)});
    expect_eq(to_ref(x.dbl()), {mod_add(a.re, a.re, p_), mod_add(a.im, a.im, p_)});
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST_F(Fp2Test, MulAndSquare) {
  const auto v = values(32);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const RefFp2& a = v[i];
    const RefFp2& b = v[(i * 7919 + 3) % v.size()];
    const Fp2 x = from_ref(a), y = from_ref(b);
    expect_eq(to_ref(x * y), mul(a, b));
    expect_eq(to_ref(x.square()), mul(a, a));
    expect_eq(to_ref(x * y.c0), {mod_mul(a.re, b.re, p_), mod_mul(a.im, b.re, p_)});
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// The lazily reduced product and square against the plain ones, on Montgomery
// representatives at the edges (0, 1, p-1, p-2, R mod p) where the unreduced sums
// and the p·R correction are largest, then on random elements.
TEST_F(Fp2Test, LazyProductAgreesWithKaratsuba) {
#ifdef ZKPIPE_FF_X86_64
  if (!kCpuHasBmi2Adx) GTEST_SKIP() << "CPU lacks BMI2/ADX";
  Fp::Repr one{};
  one[0] = 1;
  const std::vector<Fp> edges{Fp::zero(), Fp::from_mont(one),
                              Fp::from_mont(detail::sub_small(Fp::kModulus, 1)),
                              Fp::from_mont(detail::sub_small(Fp::kModulus, 2)), Fp::one()};
  std::vector<Fp2> v;
  for (const Fp& a : edges) {
    for (const Fp& b : edges) v.push_back({a, b});
  }
  std::mt19937_64 rng(34);
  for (int i = 0; i < kFp2Cases; ++i) v.push_back(Fp2::random(rng));
  for (std::size_t i = 0; i < v.size(); ++i) {
    for (std::size_t j : {i % 25, (i * 7919 + 3) % v.size()}) {
      ASSERT_EQ(v[i].mul_lazy_bmi2_adx(v[j]), v[i].mul_karatsuba(v[j])) << i << ", " << j;
    }
    ASSERT_EQ(v[i].square_lazy_bmi2_adx(), v[i].square_complex()) << i;
  }
#else
  GTEST_SKIP() << "not x86-64";
#endif
}

TEST_F(Fp2Test, Inverse) {
  for (const RefFp2& a : values(33)) {
    const Fp2 x = from_ref(a);
    const RefFp2 want = inverse(a);
    expect_eq(to_ref(x.inverse()), want);
    expect_eq(to_ref(x.inverse_ct()), want);
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_TRUE(Fp2::zero().inverse().is_zero());
  EXPECT_TRUE(Fp2::zero().inverse_ct().is_zero());
}

TEST_F(Fp2Test, SqrtOfSquaresAndNonSquares) {
  int squares = 0, non_squares = 0;
  const auto v = values(34, kFp2Cases / 2);
  for (std::size_t i = 0; i < v.size(); ++i) {
    // Odd positions are squares by construction; even ones are random.
    const RefFp2 a = i % 2 ? mul(v[i], v[i]) : v[i];
    const auto root = from_ref(a).sqrt();
    if (!is_square(a)) {
      ASSERT_FALSE(root.has_value()) << a.re.str() << " + u·" << a.im.str();
      ++non_squares;
      continue;
    }
    ASSERT_TRUE(root.has_value()) << a.re.str() << " + u·" << a.im.str();
    const RefFp2 r = to_ref(*root);
    expect_eq(mul(r, r), a);
    const RefFp2 minus_r{mod_sub(Mpz(0), r.re, p_), mod_sub(Mpz(0), r.im, p_)};
    expect_eq(mul(minus_r, minus_r), a);
    if (::testing::Test::HasFatalFailure()) return;
    ++squares;
  }
  EXPECT_GT(squares, kFp2Cases / 4);
  EXPECT_GT(non_squares, kFp2Cases / 16);
}

TEST_F(Fp2Test, SqrtOfBaseFieldElements) {
  // Every element of Fp is a square in Fp2: non-residues get a purely imaginary root.
  std::mt19937_64 rng(35);
  int imaginary_roots = 0;
  for (int i = 0; i < 1000; ++i) {
    const Fp a = Fp::random(rng);
    const auto root = Fp2{a, Fp::zero()}.sqrt();
    ASSERT_TRUE(root.has_value());
    ASSERT_EQ(root->square(), (Fp2{a, Fp::zero()}));
    if (a.legendre() == -1) {
      ASSERT_TRUE(root->c0.is_zero());
      ++imaginary_roots;
    }
  }
  EXPECT_GT(imaginary_roots, 300);
}

TEST_F(Fp2Test, FrobeniusIsPowerP) {
  for (const RefFp2& a : values(36, 1000)) {
    expect_eq(to_ref(from_ref(a).frobenius()), pow(a, p_));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST_F(Fp2Test, MulByNonresidueIsMulByOnePlusU) {
  const RefFp2 xi{Mpz(1), Mpz(1)};
  for (const RefFp2& a : values(37)) {
    expect_eq(to_ref(from_ref(a).mul_by_nonresidue()), mul(a, xi));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST_F(Fp2Test, ConjugateAndNorm) {
  for (const RefFp2& a : values(38)) {
    const Fp2 x = from_ref(a);
    expect_eq(to_ref(x.conjugate()), {a.re, mod_sub(Mpz(0), a.im, p_)});
    ASSERT_EQ(to_mpz(x.norm()), mod_add(mod_mul(a.re, a.re, p_), mod_mul(a.im, a.im, p_), p_));
    ASSERT_EQ(x.legendre(), is_square(a) ? (x.is_zero() ? 0 : 1) : -1);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST_F(Fp2Test, LexicographicOrderComparesImaginaryPartFirst) {
  Mpz half;
  mpz_sub_ui(half.get(), p_.get(), 1);
  mpz_fdiv_q_2exp(half.get(), half.get(), 1);
  for (const RefFp2& a : values(39)) {
    const bool want = mpz_sgn(a.im.get()) != 0 ? half < a.im : half < a.re;
    ASSERT_EQ(from_ref(a).is_lexicographically_largest(), want)
        << a.re.str() << " + u·" << a.im.str();
  }
}

TEST_F(Fp2Test, Constants) {
  EXPECT_TRUE(Fp2::one().is_one());
  EXPECT_TRUE(Fp2::zero().is_zero());
  const Fp2 u{Fp::zero(), Fp::one()};
  EXPECT_EQ(u.square(), -Fp2::one());
}

}  // namespace
}  // namespace zkpipe::ff
