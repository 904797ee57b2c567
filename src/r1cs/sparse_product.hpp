// a = A·z, b = B·z, c = C·z from the compiled matrices (compiled_r1cs.hpp): what
// ProvingAssignment computes while it synthesizes, bit for bit, without re-running
// the circuit.
//
// Specialized for the data of hash-heavy circuits: most witness values are 0 or 1
// (read from the compact assignment's bitmaps, never as field elements) and most
// coefficients small integers (±1, the powers of two that pack bits). A zero costs a
// bit test; a one with a small coefficient an integer add — a row's small terms are
// summed in a machine word and enter the field once per row; ±1 on a wide value is
// a field addition; only wide coefficients on wide values (Poseidon's linear
// layers) cost a field multiplication.
#pragma once

#include <span>

#include "r1cs/compact_values.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/recording_system.hpp"

namespace zkpipe::r1cs {

// Rows in parallel on all cores; a, b, c on huge pages. Throws std::invalid_argument
// when the assignment's sizes do not match the matrices.
AbcVectors evaluate_abc(const CompiledR1cs& m, std::span<const Fr> inputs, const CompactValues& aux);
// The same from full aux values (packed first).
AbcVectors evaluate_abc(const CompiledR1cs& m, const Assignment& z);

}  // namespace zkpipe::r1cs
