#include <gtest/gtest.h>

#include <random>

#include "hash/grain_lfsr.hpp"
#include "gadgets/poseidon.hpp"
#include "hash/poseidon.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/test_system.hpp"
#include "test_util.hpp"

namespace zkpipe::gadgets::poseidon {
namespace {

using testing::fr_from_hex;
using hash::poseidon::params_t12;
using hash::poseidon::params_t3;
using hash::poseidon::params_t9;
using hash::poseidon::generate_params;
using hash::poseidon::GrainLfsr;
using hash::poseidon::Params;

std::vector<ff::Fr> iota(std::size_t n) {
  std::vector<ff::Fr> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(ff::Fr::from_u64(i));
  return v;
}

// The Poseidon authors' test vectors for BLS12-381 Fr (hadeshash, code/test_vectors.txt):
// poseidonperm_x5_255_3 and poseidonperm_x5_255_5 applied to (0, 1, ..., t−1).
TEST(PoseidonNative, ReferenceVectorWidth3) {
  std::vector<ff::Fr> state = iota(3);
  permute(params_t3(), state);
  EXPECT_EQ(state[0], fr_from_hex("28ce19420fc246a05553ad1e8c98f5c9d67166be2c18e9e4cb4b4e317dd2a78a"));
  EXPECT_EQ(state[1], fr_from_hex("51f3e312c95343a896cfd8945ea82ba956c1118ce9b9859b6ea56637b4b1ddc4"));
  EXPECT_EQ(state[2], fr_from_hex("3b2b69139b235626a0bfb56c9527ae66a7bf486ad8c11c14d1da0c69bbe0f79a"));
}

TEST(PoseidonNative, ReferenceVectorWidth5) {
  const Params p = generate_params(5, 8, 60);
  std::vector<ff::Fr> state = iota(5);
  permute(p, state);
  EXPECT_EQ(state[0], fr_from_hex("2a918b9c9f9bd7bb509331c81e297b5707f6fc7393dcee1b13901a0b22202e18"));
  EXPECT_EQ(state[1], fr_from_hex("65ebf8671739eeb11fb217f2d5c5bf4a0c3f210e3f3cd3b08b5db75675d797f7"));
  EXPECT_EQ(state[2], fr_from_hex("2cc176fc26bc70737a696a9dfd1b636ce360ee76926d182390cdb7459cf585ce"));
  EXPECT_EQ(state[3], fr_from_hex("4dc4e29d283afd2a491fe6aef122b9a968e74eff05341f3cc23fda1781dcb566"));
  EXPECT_EQ(state[4], fr_from_hex("03ff622da276830b9451b88b85e6184fd6ae15c8ab3ee25a5667be8592cce3b1"));
}

TEST(PoseidonParams, ShapesOfTheCircuitInstances) {
  for (const Params* p : {&params_t3(), &params_t9(), &params_t12()}) {
    EXPECT_EQ(p->full_rounds, 8u);
    EXPECT_EQ(p->partial_rounds, 57u);
    EXPECT_EQ(p->round_constants.size(), (8u + 57u) * p->t);
    EXPECT_EQ(p->mds.size(), p->t * p->t);
  }
  EXPECT_EQ(params_t9().arity(), 8u);
  EXPECT_EQ(params_t12().arity(), 11u);
}

TEST(GrainLfsr, DependsOnEveryParameter) {
  auto first_constant = [](unsigned t, unsigned rf, unsigned rp) {
    GrainLfsr lfsr(255, t, rf, rp);
    return lfsr.next_fr_rejection_sampled();
  };
  const ff::Fr base = first_constant(3, 8, 57);
  EXPECT_NE(base, first_constant(9, 8, 57));
  EXPECT_NE(base, first_constant(3, 10, 57));
  EXPECT_NE(base, first_constant(3, 8, 56));
}

class PoseidonGadget : public ::testing::TestWithParam<const Params*> {};

TEST_P(PoseidonGadget, MatchesNativeAndHasTheExpectedConstraintCount) {
  const Params& p = *GetParam();
  std::mt19937_64 rng(p.t);
  for (int iter = 0; iter < 3; ++iter) {
    std::vector<ff::Fr> inputs(p.arity());
    for (ff::Fr& x : inputs) x = ff::Fr::random(rng);
    r1cs::TestSystem cs;
    std::vector<Num> nums;
    for (const ff::Fr& x : inputs) nums.push_back(Num::of(AllocatedNum::alloc(cs, x)));
    const Num out = hash(cs, p, nums);
    EXPECT_EQ(out.value, hash(p, inputs));
    EXPECT_EQ(out.lc.evaluate(cs.assignment()), out.value);
    EXPECT_EQ(cs.num_constraints(), 3 * (p.t * p.full_rounds + p.partial_rounds));
    ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
    // Corrupt the first S-box output of the first partial round.
    const std::size_t first_partial_sbox = 3 * p.t * (p.full_rounds / 2);
    cs.set_aux(r1cs::Variable::aux(static_cast<std::uint32_t>(p.arity() + first_partial_sbox + 1)), ff::Fr::from_u64(1));
    const auto failure = cs.which_is_unsatisfied();
    ASSERT_TRUE(failure.has_value());
    EXPECT_EQ(*failure, "poseidon/round 4: constraint " + std::to_string(first_partial_sbox + 1) + " not satisfied");
  }
}

INSTANTIATE_TEST_SUITE_P(Widths, PoseidonGadget, ::testing::Values(&params_t3(), &params_t9(), &params_t12()),
                         [](const auto& info) {
                           std::string name = "t";
                           name += std::to_string(info.param->t);
                           return name;
                         });

TEST(PoseidonGadgetProving, PermutationSatisfiesAbc) {
  r1cs::ProvingAssignment cs;
  std::vector<Num> state;
  for (const ff::Fr& x : iota(3)) state.push_back(Num::of(AllocatedNum::alloc(cs, x)));
  const std::vector<Num> out = permute(cs, params_t3(), state);
  EXPECT_EQ(out[0].value, fr_from_hex("28ce19420fc246a05553ad1e8c98f5c9d67166be2c18e9e4cb4b4e317dd2a78a"));
  for (std::size_t i = 0; i < cs.num_constraints(); ++i) ASSERT_EQ(cs.a()[i] * cs.b()[i], cs.c()[i]);
}

}  // namespace
}  // namespace zkpipe::gadgets::poseidon
