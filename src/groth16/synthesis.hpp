// Circuits into the two things Groth16 needs: the matrices (for setup) and a
// partition's witness (for the prover), both with the input constraints appended.
//
// A witness comes two ways, equal bit for bit:
//   assignment  one synthesis through ProvingAssignment, which evaluates every
//               constraint's linear combinations as it goes;
//   pce         the pre-compiled constraint evaluator: the circuit compiled once per
//               shape (compile_circuit), then per partition only the assignment
//               (values-only gadgets, independent parts on all cores) and a sparse
//               product for a, b, c; the densities come from the compiled matrices.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "groth16/footprint.hpp"
#include "groth16/witness.hpp"
#include "r1cs/partitioned_circuit.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/recording_system.hpp"

namespace zkpipe::groth16 {

r1cs::R1csMatrices record_matrices(const r1cs::PartitionedCircuit& circuit);
// The circuit's counts (input constraints included) without its matrices.
CircuitShape count_shape(const r1cs::PartitionedCircuit& circuit);

// `progress`, when given, is called with the constraints compiled so far.
r1cs::CompiledR1cs compile_circuit(const r1cs::PartitionedCircuit& circuit,
                                   std::function<void(std::size_t constraints)> progress = {});

PartitionWitness synthesize_witness(const r1cs::PartitionedCircuit& circuit, std::size_t partition);

// The deferred witness of the pce path (witness.hpp): the compact assignment, the
// densities and the evaluator; a, b, c are computed by the backend's start(). Throws
// std::invalid_argument when the partition's assignment does not have the compiled
// circuit's sizes (a compiled form of another circuit).
PartitionWitness synthesize_witness(const r1cs::PartitionedCircuit& circuit, std::size_t partition,
                                    std::shared_ptr<const r1cs::CompiledR1cs> compiled);

}  // namespace zkpipe::groth16
