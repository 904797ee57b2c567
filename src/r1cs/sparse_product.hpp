// a = A·z, b = B·z, c = C·z from the compiled matrices (compiled_r1cs.hpp): what
// ProvingAssignment computes while it synthesizes, bit for bit, without re-running
// the circuit.
//
// Specialized for the data of hash-heavy circuits: most witness values are 0 or 1
// and most coefficients small integers (±1, the powers of two that pack bits). A
// zero value costs a comparison; a one with a small coefficient an integer add —
// the row's small terms are summed in a machine word and enter the field once per
// row; ±1 on a wide value is a field addition; only wide coefficients on wide
// values (Poseidon's linear layers) cost a field multiplication.
#pragma once

#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/recording_system.hpp"

namespace zkpipe::r1cs {

// Rows in parallel on all cores. Throws std::invalid_argument when z's sizes do not
// match the matrices.
AbcVectors evaluate_abc(const CompiledR1cs& m, const Assignment& z);

// One row of one matrix (the reference for tests, and the kernel of the above).
Fr evaluate_row(const CompiledMatrix& m, std::span<const Fr> coefficient_table, std::size_t row,
                const Assignment& z);

}  // namespace zkpipe::r1cs
