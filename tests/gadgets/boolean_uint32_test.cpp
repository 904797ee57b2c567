#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "gadgets/boolean.hpp"
#include "r1cs/test_system.hpp"
#include "gadgets/uint32.hpp"

namespace zkpipe::r1cs {
namespace {

// Every Boolean form: constant 0/1, allocated 0/1, negated allocated 0/1.
std::vector<Boolean> all_forms(ConstraintSystem& cs) {
  std::vector<Boolean> v;
  for (bool b : {false, true}) {
    v.push_back(Boolean::constant(b));
    v.push_back(Boolean::alloc(cs, b));
    v.push_back(!Boolean::alloc(cs, !b));
  }
  return v;
}

TEST(Boolean, AllocRejectsNonBits) {
  TestSystem cs;
  Boolean b = Boolean::alloc(cs, true);
  EXPECT_TRUE(cs.is_satisfied());
  cs.set_aux(Variable::aux(0), Fr::from_u64(2));
  EXPECT_FALSE(cs.is_satisfied());
  EXPECT_TRUE(b.value());
}

TEST(Boolean, GatesMatchTruthTablesForEveryForm) {
  TestSystem cs;
  const std::vector<Boolean> forms = all_forms(cs);
  for (const Boolean& a : forms) {
    for (const Boolean& b : forms) {
      EXPECT_EQ(xor_of(cs, a, b).value(), a.value() != b.value());
      EXPECT_EQ(and_of(cs, a, b).value(), a.value() && b.value());
      EXPECT_EQ((!a).value(), !a.value());
      for (const Boolean& c : forms) {
        EXPECT_EQ(sha256_ch(cs, a, b, c).value(), a.value() ? b.value() : c.value());
        EXPECT_EQ(sha256_maj(cs, a, b, c).value(), (a.value() + b.value() + c.value()) >= 2);
      }
    }
  }
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
}

TEST(Boolean, XorOutputCannotBeForged) {
  TestSystem cs;
  Boolean a = Boolean::alloc(cs, true);
  Boolean b = Boolean::alloc(cs, false);
  Boolean c = xor_of(cs, a, b);
  ASSERT_TRUE(cs.is_satisfied());
  cs.set_aux(Variable::aux(2), Fr::zero());
  EXPECT_FALSE(cs.is_satisfied());
  EXPECT_TRUE(c.value());
}

TEST(Boolean, ConstantsCostNoConstraints) {
  TestSystem cs;
  Boolean a = Boolean::alloc(cs, true);
  const std::size_t before = cs.num_constraints();
  xor_of(cs, a, Boolean::constant(true));
  and_of(cs, Boolean::constant(false), a);
  sha256_ch(cs, Boolean::constant(true), a, !a);
  EXPECT_EQ(cs.num_constraints(), before);
}

TEST(Boolean, BitByteConversionsRoundTrip) {
  const std::vector<std::uint8_t> bytes = {0x80, 0x01, 0xa5};
  const std::vector<bool> bits = bytes_to_bits_be(bytes);
  ASSERT_EQ(bits.size(), 24u);
  EXPECT_TRUE(bits[0]);
  EXPECT_FALSE(bits[1]);
  EXPECT_TRUE(bits[15]);
  EXPECT_EQ(bits_to_bytes_be(bits), bytes);
}

TEST(UInt32, OperationsMatchNativeArithmetic) {
  std::mt19937_64 rng(7);
  for (int iter = 0; iter < 20; ++iter) {
    TestSystem cs;
    const auto x = static_cast<std::uint32_t>(rng());
    const auto y = static_cast<std::uint32_t>(rng());
    const auto k = static_cast<std::uint32_t>(rng());
    const UInt32 a = UInt32::alloc(cs, x);
    const UInt32 b = UInt32::alloc(cs, y);
    const UInt32 c = UInt32::constant(k);
    EXPECT_EQ(a.value(), x);
    EXPECT_EQ(xor_of(cs, a, b).value(), x ^ y);
    EXPECT_EQ(xor_of(cs, a, c).value(), x ^ k);
    EXPECT_EQ(and_of(cs, a, b).value(), x & y);
    for (unsigned n : {0u, 1u, 7u, 31u}) {
      EXPECT_EQ(a.rotr(n).value(), std::rotr(x, static_cast<int>(n)));
      EXPECT_EQ(a.shr(n).value(), x >> n);
    }
    const std::array<UInt32, 5> ops = {a, b, c, a.rotr(3), UInt32::constant(0xffffffff)};
    const std::uint32_t expect = x + y + k + std::rotr(x, 3) + 0xffffffffu;
    EXPECT_EQ(UInt32::addmany(cs, ops).value(), expect);
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  }
}

TEST(UInt32, AddmanyOfConstantsIsConstantAndCorruptedSumsAreRejected) {
  TestSystem cs;
  const std::array<UInt32, 2> consts = {UInt32::constant(0xffffffff), UInt32::constant(2)};
  const UInt32 s = UInt32::addmany(cs, consts);
  EXPECT_EQ(s.value(), 1u);
  EXPECT_EQ(cs.num_constraints(), 0u);

  const std::array<UInt32, 2> ops = {UInt32::alloc(cs, 0x80000000u), UInt32::alloc(cs, 0x80000001u)};
  const std::size_t before_aux = cs.num_aux();
  const UInt32 sum = UInt32::addmany(cs, ops);
  EXPECT_EQ(sum.value(), 1u);
  ASSERT_TRUE(cs.is_satisfied());
  // Flip the carry bit (bit 32, a valid boolean): the packing constraint catches it.
  cs.set_aux(Variable::aux(static_cast<std::uint32_t>(before_aux + 32)), Fr::zero());
  EXPECT_FALSE(cs.is_satisfied());
}

}  // namespace
}  // namespace zkpipe::r1cs
