// Boolean and UInt32 against bellperson's gadgets (bellpepper-core
// src/gadgets/boolean.rs, bellperson src/gadgets/uint32.rs and multieq.rs): truth
// tables, which form (constant, variable, negated variable) a result takes, how many
// constraints each case costs, and that a values-only system computes the same
// assignment as a recording one.
#include <gtest/gtest.h>

#include <bit>
#include <functional>
#include <random>

#include "gadgets/boolean.hpp"
#include "gadgets/multieq.hpp"
#include "gadgets/uint32.hpp"
#include "r1cs/test_system.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::gadgets {
namespace {

enum class Form { kFalse, kTrue, kAllocFalse, kAllocTrue, kNegAllocFalse, kNegAllocTrue };
constexpr std::array<Form, 6> kForms = {Form::kFalse,      Form::kTrue,         Form::kAllocFalse,
                                        Form::kAllocTrue,  Form::kNegAllocFalse, Form::kNegAllocTrue};

// bellpepper's OperandType: NegatedAllocatedTrue is the negation of a variable
// holding true (so its value is false).
Boolean make(r1cs::ConstraintSystem& cs, Form f) {
  switch (f) {
    case Form::kFalse:
      return Boolean::constant(false);
    case Form::kTrue:
      return Boolean::constant(true);
    case Form::kAllocFalse:
      return Boolean::alloc(cs, false);
    case Form::kAllocTrue:
      return Boolean::alloc(cs, true);
    case Form::kNegAllocFalse:
      return !Boolean::alloc(cs, false);
    case Form::kNegAllocTrue:
      return !Boolean::alloc(cs, true);
  }
  return {};
}

bool is_constant_form(Form f) { return f == Form::kFalse || f == Form::kTrue; }
bool is_negated_form(Form f) { return f == Form::kNegAllocFalse || f == Form::kNegAllocTrue; }

TEST(Boolean, AllocRejectsNonBits) {
  r1cs::TestSystem cs;
  Boolean b = Boolean::alloc(cs, true);
  EXPECT_TRUE(cs.is_satisfied());
  cs.set_aux(r1cs::Variable::aux(0), ff::Fr::zero());
  EXPECT_TRUE(cs.is_satisfied());
  cs.set_aux(r1cs::Variable::aux(0), ff::Fr::from_u64(2));
  EXPECT_FALSE(cs.is_satisfied());
  EXPECT_TRUE(b.value());
}

// bellpepper test_boolean_xor: the result of two variables is a new variable, negated
// exactly when one operand is; with a constant it is the other operand or its negation.
TEST(Boolean, XorFormsAndCostsAreBellpersons) {
  for (Form fa : kForms) {
    for (Form fb : kForms) {
      r1cs::TestSystem cs;
      const Boolean a = make(cs, fa);
      const Boolean b = make(cs, fb);
      const std::size_t before = cs.num_constraints();
      const Boolean c = xor_of(cs, a, b);
      EXPECT_EQ(c.value(), a.value() != b.value());
      const bool both_variables = !is_constant_form(fa) && !is_constant_form(fb);
      EXPECT_EQ(cs.num_constraints() - before, both_variables ? 1u : 0u);
      EXPECT_EQ(c.is_constant(), is_constant_form(fa) && is_constant_form(fb));
      if (both_variables) {
        EXPECT_EQ(c.is_negated(), is_negated_form(fa) != is_negated_form(fb));
        // The new variable holds the xor of the two variables.
        EXPECT_EQ(cs.aux().back(), (a.value() != a.is_negated()) != (b.value() != b.is_negated()) ? ff::Fr::one()
                                                                                                  : ff::Fr::zero());
        ASSERT_TRUE(cs.is_satisfied());
        const ff::Fr stored = cs.aux().back();
        cs.set_aux(c.variable(), stored.is_zero() ? ff::Fr::one() : ff::Fr::zero());
        EXPECT_FALSE(cs.is_satisfied());
        cs.set_aux(c.variable(), stored);
      } else if (!c.is_constant()) {
        const bool flips = (is_constant_form(fa) && a.value()) || (is_constant_form(fb) && b.value());
        const Form other = is_constant_form(fa) ? fb : fa;
        EXPECT_EQ(c.is_negated(), is_negated_form(other) != flips);
      }
      EXPECT_TRUE(cs.is_satisfied());
    }
  }
}

// bellpepper test_boolean_and: one constraint (and, and-not or nor) for two
// variables, a plain (not negated) result; none with a constant.
TEST(Boolean, AndAndOrFormsAndCosts) {
  for (Form fa : kForms) {
    for (Form fb : kForms) {
      r1cs::TestSystem cs;
      const Boolean a = make(cs, fa);
      const Boolean b = make(cs, fb);
      const std::size_t before = cs.num_constraints();
      const Boolean c = and_of(cs, a, b);
      EXPECT_EQ(c.value(), a.value() && b.value());
      const bool both_variables = !is_constant_form(fa) && !is_constant_form(fb);
      EXPECT_EQ(cs.num_constraints() - before, both_variables ? 1u : 0u);
      if (both_variables) {
        EXPECT_FALSE(c.is_negated());
        ASSERT_TRUE(cs.is_satisfied());
        cs.set_aux(c.variable(), c.value() ? ff::Fr::zero() : ff::Fr::one());
        EXPECT_FALSE(cs.is_satisfied()) << static_cast<int>(fa) << " " << static_cast<int>(fb);
        cs.set_aux(c.variable(), c.value() ? ff::Fr::one() : ff::Fr::zero());
      }
      EXPECT_EQ(or_of(cs, a, b).value(), a.value() || b.value());
      EXPECT_TRUE(cs.is_satisfied());
    }
  }
}

// bellpepper test_boolean_sha256_ch / _maj: every combination of forms gives the
// right value and a satisfied system; three constants cost nothing; three variables
// cost one (ch) or two (maj) constraints.
TEST(Boolean, ChAndMajOverEveryForm) {
  for (Form fa : kForms) {
    for (Form fb : kForms) {
      for (Form fc : kForms) {
        r1cs::TestSystem cs;
        const Boolean a = make(cs, fa);
        const Boolean b = make(cs, fb);
        const Boolean c = make(cs, fc);
        const bool all_constant = is_constant_form(fa) && is_constant_form(fb) && is_constant_form(fc);
        const bool no_constant = !is_constant_form(fa) && !is_constant_form(fb) && !is_constant_form(fc);
        std::size_t before = cs.num_constraints();
        EXPECT_EQ(sha256_ch(cs, a, b, c).value(), a.value() ? b.value() : c.value());
        if (all_constant) {
          EXPECT_EQ(cs.num_constraints(), before);
        }
        if (no_constant) {
          EXPECT_EQ(cs.num_constraints() - before, 1u);
        }
        before = cs.num_constraints();
        EXPECT_EQ(sha256_maj(cs, a, b, c).value(), (a.value() + b.value() + c.value()) >= 2);
        if (all_constant) {
          EXPECT_EQ(cs.num_constraints(), before);
        }
        if (no_constant) {
          EXPECT_EQ(cs.num_constraints() - before, 2u);
        }
        EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
      }
    }
  }
}

// bellperson does not fold a constant true selector: ch(1, b, c) still allocates.
TEST(Boolean, ChWithATrueSelectorTakesTheGeneralForm) {
  r1cs::TestSystem cs;
  const Boolean b = Boolean::alloc(cs, true);
  const Boolean c = Boolean::alloc(cs, false);
  const std::size_t before = cs.num_constraints();
  EXPECT_TRUE(sha256_ch(cs, Boolean::constant(true), b, c).value());
  EXPECT_EQ(cs.num_constraints() - before, 1u);
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(Boolean, EnforceEqual) {
  for (Form fa : kForms) {
    for (Form fb : kForms) {
      r1cs::TestSystem cs;
      const Boolean a = make(cs, fa);
      const Boolean b = make(cs, fb);
      if (is_constant_form(fa) && is_constant_form(fb)) {
        if (a.value() == b.value()) {
          enforce_equal(cs, a, b);
          EXPECT_EQ(cs.num_constraints(), 0u);
        } else {
          EXPECT_THROW(enforce_equal(cs, a, b), std::invalid_argument);
        }
        continue;
      }
      const std::size_t before = cs.num_constraints();
      enforce_equal(cs, a, b);
      EXPECT_EQ(cs.num_constraints() - before, 1u);
      EXPECT_EQ(cs.is_satisfied(), a.value() == b.value());
    }
  }
}

TEST(Boolean, AllocConditionallyForbidsOneUnderATrueCondition) {
  r1cs::TestSystem cs;
  const Boolean cond = Boolean::alloc(cs, true);
  const Boolean zero = Boolean::alloc_conditionally(cs, false, cond);
  ASSERT_TRUE(cs.is_satisfied());
  cs.set_aux(zero.variable(), ff::Fr::one());
  EXPECT_FALSE(cs.is_satisfied());
  cs.set_aux(cond.variable(), ff::Fr::zero());
  EXPECT_TRUE(cs.is_satisfied());
  EXPECT_THROW(Boolean::alloc_conditionally(cs, false, !cond), std::invalid_argument);
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

TEST(Boolean, ReverseBitNumberingPadsAndReversesWithinBytes) {
  // 0x01 0x80 most-significant-first, then three bits that pad to a fourth byte.
  std::vector<bool> in = bytes_to_bits_be(std::vector<std::uint8_t>{0x01, 0x80});
  in.insert(in.end(), {true, false, true});
  const std::vector<Boolean> out = reverse_bit_numbering(constant_bits(in));
  ASSERT_EQ(out.size(), 24u);
  EXPECT_EQ(bits_to_bytes_be(values_of(out)), (std::vector<std::uint8_t>{0x80, 0x01, 0x05}));
}

TEST(UInt32, OperationsMatchNativeArithmetic) {
  std::mt19937_64 rng(7);
  for (int iter = 0; iter < 20; ++iter) {
    r1cs::TestSystem cs;
    const auto x = static_cast<std::uint32_t>(rng());
    const auto y = static_cast<std::uint32_t>(rng());
    const auto k = static_cast<std::uint32_t>(rng());
    const UInt32 a = UInt32::alloc(cs, x);
    const UInt32 b = UInt32::alloc(cs, y);
    const UInt32 c = UInt32::constant(k);
    EXPECT_EQ(a.value(), x);
    EXPECT_EQ(xor_of(cs, a, b).value(), x ^ y);
    EXPECT_EQ(xor_of(cs, a, c).value(), x ^ k);
    EXPECT_EQ(sha256_ch(cs, a, b, c).value(), (x & y) ^ (~x & k));
    EXPECT_EQ(sha256_maj(cs, a, b, c).value(), (x & y) ^ (x & k) ^ (y & k));
    for (unsigned n : {0u, 1u, 7u, 31u}) {
      EXPECT_EQ(a.rotr(n).value(), std::rotr(x, static_cast<int>(n)));
      EXPECT_EQ(a.shr(n).value(), x >> n);
    }
    MultiEq eq(cs);
    const std::array<UInt32, 5> ops = {a, b, c, a.rotr(3), UInt32::constant(0xffffffff)};
    const std::uint32_t expect = x + y + k + std::rotr(x, 3) + 0xffffffffu;
    EXPECT_EQ(UInt32::addmany(eq, ops).value(), expect);
    eq.flush();
    EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  }
}

// bellperson test_uint32_xor: a ^ constant ^ c, one constraint per bit of the second
// xor only, and results of mixed forms.
TEST(UInt32, XorWithAConstantCostsOnlyWhereBothSidesAreVariables) {
  r1cs::TestSystem cs;
  const UInt32 a = UInt32::alloc(cs, 0x12345678);
  const UInt32 c = UInt32::alloc(cs, 0x0f0f0f0f);
  const std::size_t before = cs.num_constraints();
  const UInt32 r = xor_of(cs, xor_of(cs, a, UInt32::constant(0xdeadbeef)), c);
  EXPECT_EQ(cs.num_constraints() - before, 32u);
  EXPECT_EQ(r.value(), 0x12345678u ^ 0xdeadbeefu ^ 0x0f0f0f0fu);
  // Bits where the constant was 1 came out negated, then xored with c.
  EXPECT_EQ(r.negated_mask(), 0xdeadbeefu);
  EXPECT_TRUE(cs.is_satisfied());
}

// bellperson test_uint32_addmany_constants / test_uint32_addmany.
TEST(UInt32, AddmanyOfConstantsIsConstant) {
  r1cs::TestSystem cs;
  MultiEq eq(cs);
  const std::array<UInt32, 3> consts = {UInt32::constant(0xffffffff), UInt32::constant(2), UInt32::constant(7)};
  const UInt32 s = UInt32::addmany(eq, consts);
  eq.flush();
  EXPECT_EQ(s.value(), 8u);
  EXPECT_EQ(s.constant_mask(), 0xffffffffu);
  EXPECT_EQ(cs.num_constraints(), 0u);
}

TEST(UInt32, AddmanyAllocatesTheFullSumAndItsPackingIsChecked) {
  r1cs::TestSystem cs;
  const UInt32 a = UInt32::alloc(cs, 0x80000000u);
  const UInt32 d = UInt32::alloc(cs, 0x80000001u);
  const UInt32 r = xor_of(cs, a, UInt32::constant(0x5555aaaa));
  const std::size_t before_aux = cs.num_aux();
  const std::size_t before = cs.num_constraints();
  UInt32 sum;
  {
    MultiEq eq(cs);
    const std::array<UInt32, 3> ops = {r, UInt32::constant(0x11111111), d};
    sum = UInt32::addmany(eq, ops);
  }
  // 3·(2^32 − 1) needs 34 bits: 34 booleanity constraints and the packing one.
  EXPECT_EQ(cs.num_aux() - before_aux, 34u);
  EXPECT_EQ(cs.num_constraints() - before, 35u);
  EXPECT_EQ(sum.value(), (0x80000000u ^ 0x5555aaaau) + 0x11111111u + 0x80000001u);
  ASSERT_TRUE(cs.is_satisfied());
  // Flip result bit 0 (still a valid bit): the packing equality catches it.
  const r1cs::Variable bit0 = sum.bits_le()[0].variable();
  cs.set_aux(bit0, sum.bits_le()[0].value() ? ff::Fr::zero() : ff::Fr::one());
  EXPECT_FALSE(cs.is_satisfied());
}

TEST(UInt32, AddmanyRejectsOperandCountsBellpersonRejects) {
  r1cs::TestSystem cs;
  MultiEq eq(cs);
  std::vector<UInt32> ops(11, UInt32::alloc(cs, 1));
  EXPECT_THROW(UInt32::addmany(eq, std::span(ops).first(1)), std::invalid_argument);
  EXPECT_THROW(UInt32::addmany(eq, ops), std::invalid_argument);
  EXPECT_NO_THROW(UInt32::addmany(eq, std::span(ops).first(10)));
}

// MultiEq packs equalities while they fit below 254 bits: seven 33-bit sums share a
// constraint, the eighth starts the next.
TEST(MultiEq, BatchesEqualitiesUpToFrsCapacity) {
  r1cs::TestSystem cs;
  const UInt32 x = UInt32::alloc(cs, 0xfedcba98);
  const UInt32 y = UInt32::alloc(cs, 0x13579bdf);
  const std::size_t before = cs.num_constraints();
  std::vector<UInt32> sums;
  {
    MultiEq eq(cs);
    const std::array<UInt32, 2> ops = {x, y};
    for (int i = 0; i < 8; ++i) sums.push_back(UInt32::addmany(eq, ops));
    EXPECT_EQ(cs.num_constraints() - before, 8u * 33u + 1u);
  }
  EXPECT_EQ(cs.num_constraints() - before, 8u * 33u + 2u);
  ASSERT_TRUE(cs.is_satisfied());
  // A wrong sum in the middle of a batch is still caught.
  const Boolean bit = sums[2].bits_le()[0];
  cs.set_aux(bit.variable(), bit.value() ? ff::Fr::zero() : ff::Fr::one());
  EXPECT_FALSE(cs.is_satisfied());
}

// The values-only paths (word arithmetic on masks) must allocate exactly what the
// per-bit gadgets allocate: same values, same order, same constraint count.
TEST(UInt32, ValuesOnlySystemComputesTheSameAssignment) {
  std::mt19937_64 rng(11);
  auto run = [&](r1cs::ConstraintSystem& cs, std::uint64_t seed) {
    std::mt19937_64 r(seed);
    std::vector<UInt32> words;
    for (int i = 0; i < 4; ++i) words.push_back(UInt32::alloc(cs, static_cast<std::uint32_t>(r())));
    for (int i = 0; i < 3; ++i) words.push_back(UInt32::constant(static_cast<std::uint32_t>(r())));
    // Words mixing constant, plain and negated bits.
    words.push_back(xor_of(cs, words[0], words[4]));
    words.push_back(xor_of(cs, words[1].shr(5), words[5].rotr(9)));
    MultiEq eq(cs);
    for (int step = 0; step < 40; ++step) {
      const UInt32 a = words[r() % words.size()];
      const UInt32 b = words[r() % words.size()];
      const UInt32 c = words[r() % words.size()];
      switch (r() % 4) {
        case 0:
          words.push_back(xor_of(cs, a.rotr(static_cast<unsigned>(r() % 32)), b));
          break;
        case 1:
          words.push_back(sha256_ch(cs, a, b, c));
          break;
        case 2:
          words.push_back(sha256_maj(cs, a, b, c.shr(static_cast<unsigned>(r() % 32))));
          break;
        default: {
          const std::array<UInt32, 3> ops = {a, b, c};
          words.push_back(UInt32::addmany(eq, ops));
        }
      }
    }
    eq.flush();
    std::vector<std::uint32_t> values;
    for (const UInt32& w : words) values.push_back(w.value());
    return values;
  };
  for (int iter = 0; iter < 20; ++iter) {
    const std::uint64_t seed = rng();
    r1cs::TestSystem full;
    r1cs::WitnessSystem values_only;
    EXPECT_EQ(run(full, seed), run(values_only, seed));
    ASSERT_TRUE(full.is_satisfied()) << *full.which_is_unsatisfied();
    EXPECT_EQ(values_only.num_constraints(), full.num_constraints());
    EXPECT_EQ(values_only.aux_values(), full.aux());
  }
}

}  // namespace
}  // namespace zkpipe::gadgets
