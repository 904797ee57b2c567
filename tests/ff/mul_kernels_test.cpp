// Both Montgomery products, the portable one and the mulx/adcx/adox kernel, against
// GMP: a·b·R^{-1} mod p on the Montgomery representatives.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gmp_oracle.hpp"

namespace zkpipe::ff {
namespace {

using testing::Mpz;

constexpr int kMulCases = 20000;

template <class Field>
class MulKernelTest : public ::testing::Test {
 protected:
  static constexpr std::size_t N = Field::kLimbs;

  // Montgomery representatives stressing carries: 0, 1, p-1, p-2, all-ones low
  // limbs under p's top limb, R mod p, then random residues.
  static std::vector<typename Field::Repr> operands() {
    using Repr = typename Field::Repr;
    std::vector<Repr> v;
    v.push_back(Repr{});
    Repr one{};
    one[0] = 1;
    v.push_back(one);
    v.push_back(detail::sub_small(Field::kModulus, 1));
    v.push_back(detail::sub_small(Field::kModulus, 2));
    Repr below{};
    for (auto& limb : below) limb = ~u64{0};
    below[N - 1] = Field::kModulus[N - 1] - 1;
    v.push_back(below);
    v.push_back(Field::kR);
    std::mt19937_64 rng(21);
    for (int i = 0; i < kMulCases; ++i) v.push_back(Field::random(rng).mont());
    return v;
  }

  // a·b·2^(-64N) mod p
  static Mpz expected(const typename Field::Repr& a, const typename Field::Repr& b) {
    const Mpz p = Mpz::from_limbs(Field::kModulus);
    Mpz r_inv;
    mpz_ui_pow_ui(r_inv.get(), 2, 64 * N);
    r_inv = testing::mod_inv(r_inv, p);
    return testing::mod_mul(testing::mod_mul(Mpz::from_limbs(a), Mpz::from_limbs(b), p), r_inv, p);
  }

  template <class Product>
  static void check(Product product) {
    const auto v = operands();
    for (std::size_t i = 0; i < v.size(); ++i) {
      // Pair each operand with an edge value and with a random partner.
      for (std::size_t j : {i % 6, (i * 7919 + 5) % v.size()}) {
        const Field a = Field::from_mont(v[i]);
        const Field b = Field::from_mont(v[j]);
        const auto got = product(a, b).mont();
        ASSERT_EQ(Mpz::from_limbs(got), expected(v[i], v[j]))
            << Mpz::from_limbs(v[i]).str() << " * " << Mpz::from_limbs(v[j]).str();
      }
    }
  }
};

using PrimeFields = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(MulKernelTest, PrimeFields);

TYPED_TEST(MulKernelTest, Portable) {
  this->check([](const TypeParam& a, const TypeParam& b) { return a.mul_portable(b); });
}

TYPED_TEST(MulKernelTest, Bmi2Adx) {
#ifdef ZKPIPE_FF_X86_64
  if (!kCpuHasBmi2Adx) GTEST_SKIP() << "CPU lacks BMI2/ADX";
  this->check([](const TypeParam& a, const TypeParam& b) { return a.mul_bmi2_adx(b); });
#else
  GTEST_SKIP() << "not x86-64";
#endif
}

TYPED_TEST(MulKernelTest, DispatchedOperatorAgreesWithPortable) {
  std::mt19937_64 rng(22);
  for (int i = 0; i < kMulCases; ++i) {
    const TypeParam a = TypeParam::random(rng);
    const TypeParam b = TypeParam::random(rng);
    ASSERT_EQ(a * b, a.mul_portable(b));
  }
}

}  // namespace
}  // namespace zkpipe::ff
