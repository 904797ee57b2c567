#include <gtest/gtest.h>

#include <random>

#include "gadgets/merkle.hpp"
#include "gadgets/poseidon.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/recording_system.hpp"
#include "gadgets/sha256.hpp"
#include "r1cs/shape_system.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::r1cs {
namespace {

// A mixed circuit: a public SHA-256 digest of private bytes, and a Poseidon hash of
// private field elements exposed as a public input.
void synthesize_mixed(ConstraintSystem& cs, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> msg(40);
  for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
  const std::vector<gadgets::Boolean> bits = gadgets::alloc_bits(cs, gadgets::bytes_to_bits_be(msg));
  std::vector<gadgets::Boolean> digest = gadgets::sha256::hash(cs, bits);
  digest.resize(128);
  gadgets::inputize_packed(cs, digest);

  std::vector<gadgets::Num> inputs;
  for (int i = 0; i < 8; ++i) inputs.push_back(gadgets::Num::of(gadgets::AllocatedNum::alloc(cs, Fr::random(rng))));
  const gadgets::Num h = gadgets::poseidon::hash(cs, hash::poseidon::params_t9(), inputs);
  const gadgets::AllocatedNum out = gadgets::AllocatedNum::alloc_input(cs, h.value);
  gadgets::enforce_equal(cs, h, gadgets::Num::of(out));
}

TEST(CsrEvaluator, EqualsProvingAssignmentOnAMixedCircuit) {
  RecordingSystem rec;
  synthesize_mixed(rec, 1);  // any witness: the matrices do not depend on it
  enforce_input_constraints(rec);

  ProvingAssignment pa;
  synthesize_mixed(pa, 2);
  enforce_input_constraints(pa);

  WitnessSystem ws;
  synthesize_mixed(ws, 2);

  const R1csMatrices& m = rec.matrices();
  ASSERT_EQ(m.num_constraints(), pa.num_constraints());
  ASSERT_EQ(m.num_inputs, pa.num_inputs());
  ASSERT_EQ(m.num_aux, pa.num_aux());
  const std::vector<Fr> aux = ws.aux_values();
  const AbcVectors abc = evaluate_abc(m, Assignment{ws.inputs(), aux});
  EXPECT_TRUE(abc.a == pa.a());
  EXPECT_TRUE(abc.b == pa.b());
  EXPECT_TRUE(abc.c == pa.c());
  for (std::size_t i = 0; i < pa.num_constraints(); ++i) ASSERT_EQ(pa.a()[i] * pa.b()[i], pa.c()[i]) << i;
}

TEST(CsrEvaluator, RejectsAnAssignmentOfTheWrongSize) {
  RecordingSystem rec;
  synthesize_mixed(rec, 1);
  WitnessSystem ws;
  ws.alloc([] { return Fr::one(); });
  const std::vector<Fr> aux = ws.aux_values();
  EXPECT_THROW(evaluate_abc(rec.matrices(), Assignment{ws.inputs(), aux}), std::invalid_argument);
}

TEST(ShapeSystem, CountsAndDensitiesMatchTheProvingAssignment) {
  ShapeSystem shape;
  synthesize_mixed(shape, 1);
  enforce_input_constraints(shape);
  ProvingAssignment pa;
  synthesize_mixed(pa, 3);
  enforce_input_constraints(pa);
  EXPECT_EQ(shape.num_constraints(), pa.num_constraints());
  EXPECT_EQ(shape.num_inputs(), pa.num_inputs());
  EXPECT_EQ(shape.num_aux(), pa.num_aux());
  EXPECT_EQ(shape.a_aux_density().words(), pa.a_aux_density().words());
  EXPECT_EQ(shape.b_aux_density().words(), pa.b_aux_density().words());
  EXPECT_EQ(shape.a_input_density().words(), pa.a_input_density().words());
  EXPECT_EQ(shape.b_input_density().words(), pa.b_input_density().words());
  // Every input appears in A through the input constraints.
  EXPECT_EQ(pa.a_input_density().count(), pa.num_inputs());
}

}  // namespace
}  // namespace zkpipe::r1cs
