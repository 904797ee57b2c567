// Circuits into the two things Groth16 needs: the matrices (for setup) and a
// partition's witness (for the prover), both with the input constraints appended.
#pragma once

#include <cstddef>

#include "groth16/witness.hpp"
#include "r1cs/partitioned_circuit.hpp"
#include "r1cs/recording_system.hpp"

namespace zkpipe::groth16 {

r1cs::R1csMatrices record_matrices(const r1cs::PartitionedCircuit& circuit);

PartitionWitness synthesize_witness(const r1cs::PartitionedCircuit& circuit, std::size_t partition);

}  // namespace zkpipe::groth16
