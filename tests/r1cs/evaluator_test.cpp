#include <gtest/gtest.h>

#include <random>

#include "gadgets/num.hpp"
#include "gadgets/sha256.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/recording_system.hpp"
#include "r1cs/shape_system.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::r1cs {
namespace {

// x⁵ as x², x⁴, x⁵: three products of linear combinations, as a hash's S-box.
gadgets::Num pow5(ConstraintSystem& cs, const gadgets::Num& x) {
  const gadgets::AllocatedNum x2 = gadgets::AllocatedNum::alloc(cs, x.value.square());
  cs.enforce(x.lc, x.lc, x2.lc());
  const gadgets::AllocatedNum x4 = gadgets::AllocatedNum::alloc(cs, x2.value().square());
  cs.enforce(x2.lc(), x2.lc(), x4.lc());
  const gadgets::AllocatedNum x5 = gadgets::AllocatedNum::alloc(cs, x4.value() * x.value);
  cs.enforce(x4.lc(), x.lc, x5.lc());
  return gadgets::Num::of(x5);
}

// A mixed circuit: a public SHA-256 digest of private bytes (boolean constraints,
// short combinations), and a field part shaped like Poseidon — S-boxes on cells that
// are long linear combinations with constants (every round mixes each cell into every
// other) — whose first cell is exposed as a public input.
void synthesize_mixed(ConstraintSystem& cs, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> msg(40);
  for (auto& b : msg) b = static_cast<std::uint8_t>(rng());
  const std::vector<gadgets::Boolean> bits = gadgets::alloc_bits(cs, gadgets::bytes_to_bits_be(msg));
  std::vector<gadgets::Boolean> digest = gadgets::sha256::hash(cs, bits);
  digest.resize(128);
  gadgets::inputize_packed(cs, digest);

  constexpr std::size_t kWidth = 8;
  std::vector<gadgets::Num> cells;
  for (std::size_t i = 0; i < kWidth; ++i) {
    cells.push_back(gadgets::Num::of(gadgets::AllocatedNum::alloc(cs, Fr::random(rng))));
  }
  for (std::uint64_t round = 0; round < 4; ++round) {
    for (gadgets::Num& x : cells) x = pow5(cs, x);
    std::vector<gadgets::Num> mixed;
    for (std::size_t i = 0; i < kWidth; ++i) {
      gadgets::Num acc = gadgets::Num::constant(Fr::from_u64(round + 1));
      for (std::size_t j = 0; j < kWidth; ++j) {
        gadgets::Num term = cells[j];
        term *= Fr::from_u64(i + j + 1);
        acc += term;
      }
      mixed.push_back(std::move(acc));
    }
    cells = std::move(mixed);
  }
  const gadgets::AllocatedNum out = gadgets::AllocatedNum::alloc_input(cs, cells[0].value);
  gadgets::enforce_equal(cs, cells[0], gadgets::Num::of(out));
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
