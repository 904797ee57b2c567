// AllocatedNum's bit decompositions and the packing helpers against bellperson
// (bellpepper-core src/gadgets/num.rs, bellperson src/gadgets/multipack.rs).
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "gadgets/num.hpp"
#include "r1cs/test_system.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::gadgets {
namespace {

ff::Fr random_fr(std::mt19937_64& rng) { return ff::Fr::random(rng); }

bool bit_of(const ff::Fr& x, std::size_t i) { return ((x.to_canonical()[i / 64] >> (i % 64)) & 1) != 0; }

// x + r as 255 bits, when it fits: a second, non-canonical decomposition of x.
std::optional<std::vector<bool>> bits_plus_modulus(const ff::Fr& x) {
  const auto a = x.to_canonical();
  ff::Limbs<4> sum{};
  unsigned __int128 carry = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    carry += static_cast<unsigned __int128>(a[i]) + ff::Fr::kModulus[i];
    sum[i] = static_cast<std::uint64_t>(carry);
    carry >>= 64;
  }
  if (carry != 0 || (sum[3] >> 63) != 0) return std::nullopt;
  std::vector<bool> bits;
  for (std::size_t i = 0; i < 255; ++i) bits.push_back(((sum[i / 64] >> (i % 64)) & 1) != 0);
  return bits;
}

bool bit_of_r_minus_1(std::size_t i) { return (((ff::Fr::kModulus[i / 64] - (i < 64 ? 1 : 0)) >> (i % 64)) & 1) != 0; }

// Sets the AND-chain variables of a strict decomposition (aux 0 is the number) to
// what they are for the given bits: from the most significant bit, a bit at a one of
// r − 1 joins the current run; at a zero, the run (with the previous runs' AND) is
// ANDed pairwise, each step a new variable, before the bit itself.
void forge_and_chain(r1cs::TestSystem& cs, const std::vector<bool>& bits) {
  std::uint32_t next = 1;
  std::vector<bool> run;
  std::optional<bool> last;
  for (std::size_t i = 255; i-- > 0;) {
    if (!bit_of_r_minus_1(i)) {
      if (!run.empty()) {
        if (last) run.push_back(*last);
        bool acc = run.front();
        for (std::size_t k = 1; k < run.size(); ++k) {
          acc = acc && run[k];
          cs.set_aux(r1cs::Variable::aux(next++), acc ? ff::Fr::one() : ff::Fr::zero());
        }
        last = acc;
        run.clear();
      }
    } else {
      run.push_back(bits[i]);
    }
    ++next;  // the bit itself (already set)
  }
}

std::size_t popcount_r_minus_1() {
  std::size_t n = 0;
  for (std::size_t i = 0; i < 4; ++i) n += static_cast<std::size_t>(std::popcount(ff::Fr::kModulus[i] - (i == 0 ? 1 : 0)));
  return n;
}

TEST(AllocatedNum, ToBitsLeIs255BitsAndAnUnpackingConstraint) {
  std::mt19937_64 rng(1);
  for (int iter = 0; iter < 10; ++iter) {
    r1cs::TestSystem cs;
    const ff::Fr x = random_fr(rng);
    const AllocatedNum n = AllocatedNum::alloc(cs, x);
    const std::vector<Boolean> bits = n.to_bits_le(cs);
    ASSERT_EQ(bits.size(), 255u);
    // bellpepper's field_into_allocated_bits_le: NUM_BITS booleans, then one constraint.
    EXPECT_EQ(cs.num_constraints(), 256u);
    for (std::size_t i = 0; i < 255; ++i) EXPECT_EQ(bits[i].value(), bit_of(x, i));
    ASSERT_TRUE(cs.is_satisfied());
    // bellpepper test_into_bits: another number, or any flipped bit, breaks it.
    cs.set_aux(n.var(), random_fr(rng));
    EXPECT_FALSE(cs.is_satisfied());
    cs.set_aux(n.var(), x);
    cs.set_aux(bits[100].variable(), bits[100].value() ? ff::Fr::zero() : ff::Fr::one());
    EXPECT_FALSE(cs.is_satisfied());
  }
}

// Strictness: bits at zeros of r − 1 are allocated conditionally on the AND of the
// bits at its ones above them, chained run by run: 255 booleans, popcount(r − 1) − 1
// ANDs (r − 1 ends in a zero, so every run of ones ends before one) and the unpacking.
TEST(AllocatedNum, ToBitsLeStrictRejectsTheNonCanonicalDecomposition) {
  std::mt19937_64 rng(2);
  const ff::Fr small = ff::Fr::from_u64(12345);
  const std::vector<bool> forged = *bits_plus_modulus(small);
  for (bool strict : {false, true}) {
    r1cs::TestSystem cs;
    const AllocatedNum n = AllocatedNum::alloc(cs, small);
    const std::vector<Boolean> bits = strict ? n.to_bits_le_strict(cs) : n.to_bits_le(cs);
    EXPECT_EQ(cs.num_constraints(), strict ? 255 + popcount_r_minus_1() : 256u);
    ASSERT_TRUE(cs.is_satisfied());
    if (strict) {
      // The replay of the AND chain is right: over the honest bits it changes nothing.
      std::vector<bool> honest;
      for (std::size_t i = 0; i < 255; ++i) honest.push_back(bit_of(small, i));
      forge_and_chain(cs, honest);
      ASSERT_TRUE(cs.is_satisfied());
      forge_and_chain(cs, std::vector<bool>(255, true));
      ASSERT_FALSE(cs.is_satisfied());
    }
    // A cheating prover's witness: the bits of x + r (booleanity and unpacking hold)
    // and, for the strict form, the AND chain recomputed over them in allocation order.
    for (std::size_t i = 0; i < 255; ++i) cs.set_aux(bits[i].variable(), forged[i] ? ff::Fr::one() : ff::Fr::zero());
    if (strict) forge_and_chain(cs, forged);
    EXPECT_EQ(cs.is_satisfied(), !strict);
  }
  for (int iter = 0; iter < 10; ++iter) {
    r1cs::TestSystem cs;
    const ff::Fr x = iter == 0 ? -ff::Fr::one() : random_fr(rng);
    const std::vector<Boolean> bits = AllocatedNum::alloc(cs, x).to_bits_le_strict(cs);
    for (std::size_t i = 0; i < 255; ++i) EXPECT_EQ(bits[i].value(), bit_of(x, i));
    EXPECT_TRUE(cs.is_satisfied());
  }
}

TEST(AllocatedNum, InputizeAndAdd) {
  r1cs::TestSystem cs;
  const AllocatedNum a = AllocatedNum::alloc(cs, ff::Fr::from_u64(7));
  const AllocatedNum b = AllocatedNum::alloc(cs, -ff::Fr::from_u64(3));
  const AllocatedNum sum = add(cs, a, b);
  EXPECT_EQ(sum.value(), ff::Fr::from_u64(4));
  const AllocatedNum input = sum.inputize(cs);
  EXPECT_EQ(cs.num_constraints(), 2u);
  EXPECT_EQ(cs.inputs().back(), ff::Fr::from_u64(4));
  ASSERT_TRUE(cs.is_satisfied());
  cs.set_aux(sum.var(), ff::Fr::from_u64(5));
  EXPECT_FALSE(cs.is_satisfied());
  cs.set_aux(sum.var(), ff::Fr::from_u64(4));
  cs.set_input(input.var(), ff::Fr::from_u64(5));
  EXPECT_FALSE(cs.is_satisfied());
}

// bellperson multipack.rs test_multipacking: the inputs pack_into_inputs makes are
// compute_multipacking's, 254 bits to an input.
TEST(Multipack, PackIntoInputsMatchesComputeMultipacking) {
  std::mt19937_64 rng(3);
  for (std::size_t n : {0u, 1u, 253u, 254u, 255u, 508u, 600u}) {
    r1cs::TestSystem cs;
    std::vector<bool> values;
    for (std::size_t i = 0; i < n; ++i) values.push_back((rng() & 1) != 0);
    pack_into_inputs(cs, alloc_bits(cs, values));
    const std::vector<ff::Fr> expected = compute_multipacking(values);
    EXPECT_EQ(expected.size(), (n + 253) / 254);
    ASSERT_EQ(cs.inputs().size(), expected.size() + 1) << n;
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(cs.inputs()[i + 1], expected[i]);
    EXPECT_EQ(cs.num_constraints(), n + expected.size());
    EXPECT_TRUE(cs.is_satisfied());
  }
}

TEST(Multipack, AllocPackedTakesAtMost254Bits) {
  r1cs::TestSystem cs;
  const std::vector<Boolean> bits = alloc_bits(cs, std::vector<bool>(255, true));
  EXPECT_THROW(alloc_packed(cs, bits), std::invalid_argument);
  const AllocatedNum packed = alloc_packed(cs, std::span(bits).first(254));
  ff::Fr expected = ff::Fr::zero();
  ff::Fr weight = ff::Fr::one();
  for (int i = 0; i < 254; ++i, weight = weight.dbl()) expected += weight;
  EXPECT_EQ(packed.value(), expected);
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(AllocatedNum, ValuesOnlySystemComputesTheSameAssignment) {
  std::mt19937_64 rng(4);
  auto run = [](r1cs::ConstraintSystem& cs, const ff::Fr& x) {
    const AllocatedNum n = AllocatedNum::alloc(cs, x);
    n.to_bits_le(cs);
    n.to_bits_le_strict(cs);
    add(cs, n, n).inputize(cs);
  };
  const ff::Fr x = random_fr(rng);
  r1cs::TestSystem full;
  r1cs::WitnessSystem values_only;
  run(full, x);
  run(values_only, x);
  EXPECT_EQ(values_only.num_constraints(), full.num_constraints());
  EXPECT_EQ(values_only.aux_values(), full.aux());
  EXPECT_EQ(values_only.inputs(), full.inputs());
}

}  // namespace
}  // namespace zkpipe::gadgets
