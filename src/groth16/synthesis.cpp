#include "groth16/synthesis.hpp"

#include "r1cs/proving_assignment.hpp"

namespace zkpipe::groth16 {

r1cs::R1csMatrices record_matrices(const r1cs::PartitionedCircuit& circuit) {
  r1cs::RecordingSystem cs;
  circuit.synthesize(cs, 0);
  r1cs::enforce_input_constraints(cs);
  return std::move(cs).matrices();
}

PartitionWitness synthesize_witness(const r1cs::PartitionedCircuit& circuit, std::size_t partition) {
  r1cs::ProvingAssignment cs;
  circuit.synthesize(cs, partition);
  r1cs::enforce_input_constraints(cs);
  return PartitionWitness::from(std::move(cs));
}

}  // namespace zkpipe::groth16
