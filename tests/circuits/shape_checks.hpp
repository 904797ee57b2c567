// A circuit's synthesize_shape (one part recorded, its copies appended) against its
// plain synthesis: the same compiled form entry by entry, the same counts and
// densities, and the partition's witness satisfying the compiled form.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <utility>

#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/partitioned_circuit.hpp"
#include "r1cs/shape_system.hpp"
#include "r1cs/sparse_product.hpp"

namespace zkpipe::testing {

inline void expect_shape_equals_synthesis(const r1cs::PartitionedCircuit& circuit, std::size_t partition) {
  r1cs::CompilingSystem serial;
  circuit.synthesize(serial, partition);
  r1cs::CompilingSystem repeated;
  circuit.synthesize_shape(repeated, partition);
  const r1cs::CompiledR1cs expected = std::move(serial).finish();
  const r1cs::CompiledR1cs got = std::move(repeated).finish();
  ASSERT_EQ(got.num_constraints, expected.num_constraints);
  ASSERT_EQ(got.num_inputs, expected.num_inputs);
  ASSERT_EQ(got.num_aux, expected.num_aux);
  for (const auto& [m, n] :
       {std::pair{&got.a, &expected.a}, std::pair{&got.b, &expected.b}, std::pair{&got.c, &expected.c}}) {
    EXPECT_TRUE(std::ranges::equal(m->row_offsets, n->row_offsets));
    EXPECT_TRUE(std::ranges::equal(m->columns, n->columns));
    EXPECT_TRUE(std::ranges::equal(m->coefficients, n->coefficients));  // one table order
  }
  EXPECT_TRUE(std::ranges::equal(got.coefficient_table, expected.coefficient_table));
  EXPECT_EQ(got.a_aux_density.words(), expected.a_aux_density.words());
  EXPECT_EQ(got.b_input_density.words(), expected.b_input_density.words());
  EXPECT_EQ(got.b_aux_density.words(), expected.b_aux_density.words());

  r1cs::ShapeSystem counted;
  circuit.synthesize_shape(counted, partition);
  r1cs::ShapeSystem counted_serially;
  circuit.synthesize(counted_serially, partition);
  EXPECT_EQ(counted.num_constraints(), counted_serially.num_constraints());
  EXPECT_EQ(counted.nonzeros(), counted_serially.nonzeros());
  EXPECT_EQ(counted.num_inputs(), counted_serially.num_inputs());
  EXPECT_EQ(counted.num_aux(), counted_serially.num_aux());
  EXPECT_EQ(counted.a_input_density().words(), counted_serially.a_input_density().words());
  EXPECT_EQ(counted.a_aux_density().words(), counted_serially.a_aux_density().words());
  EXPECT_EQ(counted.b_input_density().words(), counted_serially.b_input_density().words());
  EXPECT_EQ(counted.b_aux_density().words(), counted_serially.b_aux_density().words());

  const r1cs::WitnessValues values = circuit.synthesize_values(partition);
  const r1cs::AbcVectors abc = r1cs::evaluate_abc(got, values.inputs, values.aux);
  for (std::size_t i = 0; i < abc.a.size(); ++i) ASSERT_EQ(abc.a[i] * abc.b[i], abc.c[i]) << "row " << i;
}

}  // namespace zkpipe::testing
