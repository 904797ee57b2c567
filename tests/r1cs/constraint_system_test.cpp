#include <gtest/gtest.h>

#include <random>

#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/recording_system.hpp"
#include "r1cs/test_system.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::r1cs {
namespace {

// x³ + x + 5 = out with x private and out public, bellman's classic example:
//   x·x = x2, x2·x = x3, (x3 + x + 5)·1 = out.
struct Cubic {
  Variable x, x2, x3, out;
};

Cubic synthesize_cubic(ConstraintSystem& cs, std::uint64_t x_value) {
  const Fr x = Fr::from_u64(x_value);
  auto s = cs.scope("cubic");
  Cubic v;
  v.x = cs.alloc([&] { return x; });
  v.x2 = cs.alloc([&] { return x * x; });
  v.x3 = cs.alloc([&] { return x * x * x; });
  v.out = cs.alloc_input([&] { return x * x * x + x + Fr::from_u64(5); });
  {
    auto sq = cs.scope("square");
    cs.enforce(LC(v.x), LC(v.x), LC(v.x2));
  }
  cs.enforce(LC(v.x2), LC(v.x), LC(v.x3));
  auto so = cs.scope("output");
  cs.enforce(LC(v.x3) + LC(v.x) + LC::constant(Fr::from_u64(5)), LC(Variable::one()), LC(v.out));
  return v;
}

TEST(LinearCombination, CompactMergesAndDropsZeros) {
  LC lc = LC(Fr::from_u64(3), Variable::aux(2)) + LC(Variable::input(1)) + LC(Fr::from_u64(4), Variable::aux(2)) -
          LC(Variable::input(1));
  lc.compact();
  ASSERT_EQ(lc.size(), 1u);
  EXPECT_EQ(lc.terms()[0].var, Variable::aux(2));
  EXPECT_EQ(lc.terms()[0].coeff, Fr::from_u64(7));
}

TEST(LinearCombination, EvaluatesAgainstInputsAndAux) {
  const std::vector<Fr> inputs = {Fr::one(), Fr::from_u64(10)};
  const std::vector<Fr> aux = {Fr::from_u64(3), Fr::from_u64(4)};
  const Assignment z{inputs, aux};
  const LC lc = Fr::from_u64(2) * (LC(Variable::aux(0)) + LC(Variable::input(1))) - LC(Variable::aux(1)) +
                LC::constant(Fr::from_u64(100));
  EXPECT_EQ(lc.evaluate(z), Fr::from_u64(2 * 13 - 4 + 100));
}

TEST(TestSystem, AcceptsValidWitness) {
  TestSystem cs;
  synthesize_cubic(cs, 3);
  EXPECT_EQ(cs.num_constraints(), 3u);
  EXPECT_EQ(cs.num_inputs(), 2u);
  EXPECT_EQ(cs.num_aux(), 3u);
  EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  EXPECT_EQ(cs.inputs()[1], Fr::from_u64(35));
}

TEST(TestSystem, NamesTheFailingConstraintWithItsScopePath) {
  TestSystem cs;
  const Cubic v = synthesize_cubic(cs, 3);
  cs.set_aux(v.x2, Fr::from_u64(10));
  EXPECT_EQ(cs.which_is_unsatisfied(), "cubic/square: constraint 0 not satisfied");

  TestSystem cs2;
  const Cubic v2 = synthesize_cubic(cs2, 3);
  cs2.set_input(v2.out, Fr::from_u64(36));
  EXPECT_EQ(cs2.which_is_unsatisfied(), "cubic/output: constraint 2 not satisfied");
  EXPECT_EQ(cs2.constraint_path(1), "cubic");
}

TEST(TestSystem, ScopeIndexIsPartOfThePath) {
  TestSystem cs;
  {
    auto s = cs.scope("challenge", 3);
    gadgets::Boolean::alloc(cs, true);
  }
  EXPECT_EQ(cs.constraint_path(0), "challenge 3");
  cs.set_aux(Variable::aux(0), Fr::from_u64(2));
  EXPECT_EQ(cs.which_is_unsatisfied(), "challenge 3: constraint 0 not satisfied");
}

TEST(ProvingAssignment, AbcSatisfyTheConstraintsAndTheDensitiesMatch) {
  ProvingAssignment pa;
  const Cubic v = synthesize_cubic(pa, 4);
  enforce_input_constraints(pa);
  ASSERT_EQ(pa.num_constraints(), 3u + 2u);
  for (std::size_t i = 0; i < pa.num_constraints(); ++i) EXPECT_EQ(pa.a()[i] * pa.b()[i], pa.c()[i]) << i;
  EXPECT_EQ(pa.a()[0], Fr::from_u64(4));
  EXPECT_EQ(pa.c()[2], Fr::from_u64(64 + 4 + 5));
  // The input constraints' A entries are the inputs: ONE, then out.
  EXPECT_EQ(pa.a()[3], Fr::one());
  EXPECT_EQ(pa.a()[4], Fr::from_u64(73));
  EXPECT_TRUE(pa.b()[4].is_zero());

  // A uses x, x2, x3 (aux 0, 1, 2), ONE (the constant 5) and, through the input
  // constraints, every input. B uses x (twice) and ONE; never x2, x3 or out.
  EXPECT_TRUE(pa.a_aux_density().test(v.x.index()));
  EXPECT_TRUE(pa.a_aux_density().test(v.x2.index()));
  EXPECT_TRUE(pa.a_aux_density().test(v.x3.index()));
  EXPECT_EQ(pa.a_input_density().count(), 2u);
  EXPECT_TRUE(pa.b_aux_density().test(v.x.index()));
  EXPECT_FALSE(pa.b_aux_density().test(v.x2.index()));
  EXPECT_FALSE(pa.b_aux_density().test(v.x3.index()));
  EXPECT_EQ(pa.b_aux_density().count(), 1u);
  EXPECT_TRUE(pa.b_input_density().test(0));
  EXPECT_FALSE(pa.b_input_density().test(v.out.index()));
  EXPECT_EQ(pa.b_input_density().size(), 2u);
}

TEST(RecordingSystem, MatricesRecordTheConstraintsAndTheirEvaluationMatchesTheProver) {
  RecordingSystem rec;
  synthesize_cubic(rec, 0);  // the shape does not depend on the witness
  enforce_input_constraints(rec);
  const R1csMatrices& m = rec.matrices();
  EXPECT_EQ(m.num_constraints(), 5u);
  EXPECT_EQ(m.num_inputs, 2u);
  EXPECT_EQ(m.num_aux, 3u);
  EXPECT_EQ(m.a.nonzeros(), 1u + 1u + 3u + 2u);
  EXPECT_EQ(m.c.row_columns(2).size(), 1u);
  EXPECT_EQ(m.c.row_columns(2)[0], Variable::input(1));

  ProvingAssignment pa;
  synthesize_cubic(pa, 9);
  enforce_input_constraints(pa);
  const AbcVectors abc = evaluate_abc(m, pa.assignment());
  EXPECT_EQ(abc.a, pa.a());
  EXPECT_EQ(abc.b, pa.b());
  EXPECT_EQ(abc.c, pa.c());
}

TEST(WitnessSystem, ComputesTheSameAssignmentAsTheProver) {
  WitnessSystem ws;
  synthesize_cubic(ws, 7);
  ProvingAssignment pa;
  synthesize_cubic(pa, 7);
  EXPECT_EQ(ws.inputs(), pa.inputs());
  EXPECT_EQ(ws.aux_values(), pa.aux());
  EXPECT_EQ(ws.num_constraints(), pa.num_constraints());
}

TEST(Num, InputizePackedConstrainsTheInputToTheBits) {
  TestSystem cs;
  std::vector<bool> values = {true, false, true, true};  // 1 + 4 + 8
  std::vector<gadgets::Boolean> bits = gadgets::alloc_bits(cs, values);
  bits.push_back(gadgets::Boolean::constant(true));  // + 16
  const gadgets::AllocatedNum n = gadgets::inputize_packed(cs, bits);
  EXPECT_EQ(n.value(), Fr::from_u64(29));
  EXPECT_TRUE(cs.is_satisfied());
  cs.set_input(n.var(), Fr::from_u64(28));
  EXPECT_FALSE(cs.is_satisfied());
}

}  // namespace
}  // namespace zkpipe::r1cs
