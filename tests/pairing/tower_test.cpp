// The Fp6 / Fp12 tower against plain references: schoolbook products in
// Fp2[w]/(w^6 - ξ), exponentiation by p for the Frobenius maps, dense products for
// the sparse line multiplication.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "ff/fp12.hpp"

namespace zkpipe::ff {
namespace {

using Coefficients = std::array<Fp2, 6>;  // a_i of w^i

Coefficients to_coefficients(const Fp12& x) {
  return {x.c0.c0, x.c1.c0, x.c0.c1, x.c1.c1, x.c0.c2, x.c1.c2};
}

Fp12 from_coefficients(const Coefficients& a) {
  return {{a[0], a[2], a[4]}, {a[1], a[3], a[5]}};
}

// Schoolbook product in Fp2[w]/(w^6 - ξ): 36 products, w^(6+k) = ξ·w^k.
Fp12 schoolbook_mul(const Fp12& x, const Fp12& y) {
  Coefficients a = to_coefficients(x);
  Coefficients b = to_coefficients(y);
  Coefficients r{};
  for (std::size_t i = 0; i < 6; ++i) {
    for (std::size_t j = 0; j < 6; ++j) {
      Fp2 t = a[i] * b[j];
      if (i + j >= 6) r[i + j - 6] += t.mul_by_nonresidue();
      else r[i + j] += t;
    }
  }
  return from_coefficients(r);
}

Fp12 embed(const Fp6& x) { return {x, Fp6::zero()}; }

class TowerTest : public ::testing::Test {
 protected:
  std::mt19937_64 rng{0x7017e5};
};

TEST_F(TowerTest, Fp12MulMatchesSchoolbook) {
  for (int i = 0; i < 20; ++i) {
    Fp12 x = Fp12::random(rng);
    Fp12 y = Fp12::random(rng);
    EXPECT_EQ(x * y, schoolbook_mul(x, y));
  }
}

TEST_F(TowerTest, Fp6MulAndSquareMatchSchoolbook) {
  for (int i = 0; i < 20; ++i) {
    Fp6 x = Fp6::random(rng);
    Fp6 y = Fp6::random(rng);
    EXPECT_EQ(embed(x * y), schoolbook_mul(embed(x), embed(y)));
    EXPECT_EQ(x.square(), x * x);
  }
}

TEST_F(TowerTest, SquareMatchesMul) {
  for (int i = 0; i < 20; ++i) {
    Fp12 x = Fp12::random(rng);
    EXPECT_EQ(x.square(), x * x);
  }
}

TEST_F(TowerTest, FieldAxioms) {
  for (int i = 0; i < 10; ++i) {
    Fp12 a = Fp12::random(rng);
    Fp12 b = Fp12::random(rng);
    Fp12 c = Fp12::random(rng);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ(a - a, Fp12::zero());
    EXPECT_EQ(a * Fp12::one(), a);
  }
}

TEST_F(TowerTest, Inverse) {
  for (int i = 0; i < 10; ++i) {
    Fp12 x = Fp12::random(rng);
    EXPECT_TRUE((x * x.inverse()).is_one());
    Fp6 y = Fp6::random(rng);
    EXPECT_TRUE((y * y.inverse()).is_one());
  }
}

TEST_F(TowerTest, FrobeniusIsPowerP) {
  for (int i = 0; i < 3; ++i) {
    Fp12 x = Fp12::random(rng);
    EXPECT_EQ(x.frobenius(1), x.pow(Fp::kModulus));
    Fp6 y = Fp6::random(rng);
    EXPECT_EQ(embed(y.frobenius(1)), embed(y).pow(Fp::kModulus));
  }
}

TEST_F(TowerTest, FrobeniusPowersCompose) {
  Fp12 x = Fp12::random(rng);
  Fp12 iterated = x;
  for (unsigned k = 1; k <= 12; ++k) {
    iterated = iterated.frobenius(1);
    EXPECT_EQ(x.frobenius(k), iterated) << "k = " << k;
  }
  EXPECT_EQ(iterated, x);  // x^(p^12) = x
  EXPECT_EQ(x.frobenius(6), x.conjugate());
  Fp6 y = Fp6::random(rng);
  EXPECT_EQ(y.frobenius(2), y.frobenius(1).frobenius(1));
  EXPECT_EQ(y.frobenius(3), y.frobenius(2).frobenius(1));
}

TEST_F(TowerTest, SparseLineProductMatchesDense) {
  for (int i = 0; i < 10; ++i) {
    Fp12 f = Fp12::random(rng);
    Fp2 d0 = Fp2::random(rng);
    Fp2 d1 = Fp2::random(rng);
    Fp2 d4 = Fp2::random(rng);
    Fp12 line{{d0, d1, Fp2::zero()}, {Fp2::zero(), d4, Fp2::zero()}};
    EXPECT_EQ(f.mul_by_014(d0, d1, d4), f * line);
  }
}

TEST_F(TowerTest, CyclotomicSquareOnCyclotomicSubgroup) {
  for (int i = 0; i < 5; ++i) {
    Fp12 x = Fp12::random(rng);
    // x^((p^6 - 1)(p^2 + 1)) lies in the cyclotomic subgroup.
    Fp12 t = x.conjugate() * x.inverse();
    Fp12 c = t.frobenius(2) * t;
    EXPECT_EQ(c.cyclotomic_square(), c.square());
    EXPECT_EQ(c * c.conjugate(), Fp12::one());
  }
  Fp12 y = Fp12::random(rng);
  EXPECT_NE(y.cyclotomic_square(), y.square());  // off the subgroup it is not a square
}

}  // namespace
}  // namespace zkpipe::ff
