// Modular addition, subtraction, doubling and negation: the dispatched operators
// (assembly on x86-64) and the portable code, against GMP on edge values and
// random residues.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gmp_oracle.hpp"

namespace zkpipe::ff {
namespace {

using testing::Mpz;

constexpr int kAddSubCases = 5000;

template <class Field>
class AddSubKernelTest : public ::testing::Test {
 protected:
  static constexpr std::size_t N = Field::kLimbs;

  // 0, 1, p-1, p-2, a value with all-ones low limbs under p's top limb, half of p,
  // then random residues.
  static std::vector<Field> operands() {
    using Repr = typename Field::Repr;
    std::vector<Field> v;
    v.push_back(Field::zero());
    Repr one{};
    one[0] = 1;
    v.push_back(Field::from_mont(one));
    v.push_back(Field::from_mont(detail::sub_small(Field::kModulus, 1)));
    v.push_back(Field::from_mont(detail::sub_small(Field::kModulus, 2)));
    Repr below{};
    for (auto& limb : below) limb = ~u64{0};
    below[N - 1] = Field::kModulus[N - 1] - 1;
    v.push_back(Field::from_mont(below));
    v.push_back(Field::from_mont(Field::kHalfPMinus1));
    std::mt19937_64 rng(31);
    for (int i = 0; i < kAddSubCases; ++i) v.push_back(Field::random(rng));
    return v;
  }

  static Mpz of(const Field& a) { return Mpz::from_limbs(a.mont()); }

  template <class Op, class Expected>
  static void check(Op op, Expected expected) {
    const Mpz p = Mpz::from_limbs(Field::kModulus);
    const auto v = operands();
    for (std::size_t i = 0; i < v.size(); ++i) {
      for (std::size_t j : {i % 6, (i * 7919 + 5) % v.size()}) {
        ASSERT_EQ(of(op(v[i], v[j])), expected(of(v[i]), of(v[j]), p))
            << of(v[i]).str() << ", " << of(v[j]).str();
      }
    }
  }
};

using PrimeFields = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(AddSubKernelTest, PrimeFields);

TYPED_TEST(AddSubKernelTest, Add) {
  this->check([](const TypeParam& a, const TypeParam& b) { return a + b; },
              [](const Mpz& a, const Mpz& b, const Mpz& p) { return testing::mod_add(a, b, p); });
  this->check([](const TypeParam& a, const TypeParam& b) { return a.add_portable(b); },
              [](const Mpz& a, const Mpz& b, const Mpz& p) { return testing::mod_add(a, b, p); });
}

TYPED_TEST(AddSubKernelTest, Sub) {
  this->check([](const TypeParam& a, const TypeParam& b) { return a - b; },
              [](const Mpz& a, const Mpz& b, const Mpz& p) { return testing::mod_sub(a, b, p); });
  this->check([](const TypeParam& a, const TypeParam& b) { return a.sub_portable(b); },
              [](const Mpz& a, const Mpz& b, const Mpz& p) { return testing::mod_sub(a, b, p); });
}

TYPED_TEST(AddSubKernelTest, DoubleAndNegate) {
  this->check([](const TypeParam& a, const TypeParam&) { return a.dbl(); },
              [](const Mpz& a, const Mpz&, const Mpz& p) { return testing::mod_add(a, a, p); });
  this->check([](const TypeParam& a, const TypeParam&) { return -a; },
              [](const Mpz& a, const Mpz&, const Mpz& p) { return testing::mod_sub(Mpz(), a, p); });
}

// In-place forms where the result aliases an operand.
TYPED_TEST(AddSubKernelTest, AliasedOperands) {
  std::mt19937_64 rng(32);
  for (int i = 0; i < 1000; ++i) {
    TypeParam a = TypeParam::random(rng);
    const TypeParam b = a;
    a += a;
    ASSERT_EQ(a, b.add_portable(b));
    a -= a;
    ASSERT_TRUE(a.is_zero());
  }
}

}  // namespace
}  // namespace zkpipe::ff
