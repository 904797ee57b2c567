#include "groth16/synthesis.hpp"

#include <stdexcept>
#include <string>

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

CircuitShape count_shape(const r1cs::PartitionedCircuit& circuit) {
  r1cs::ShapeSystem cs;
  circuit.synthesize_shape(cs, 0);
  r1cs::enforce_input_constraints(cs);
  return CircuitShape::of(cs);
}

r1cs::CompiledR1cs compile_circuit(const r1cs::PartitionedCircuit& circuit,
                                   std::function<void(std::size_t constraints)> progress) {
  r1cs::CompilingSystem cs;
  cs.on_progress(std::move(progress));
  circuit.synthesize_shape(cs, 0);
  r1cs::enforce_input_constraints(cs);
  return std::move(cs).finish();
}

PartitionWitness synthesize_witness(const r1cs::PartitionedCircuit& circuit, std::size_t partition,
                                    std::shared_ptr<const r1cs::CompiledR1cs> compiled) {
  r1cs::WitnessValues values = circuit.synthesize_values(partition, compiled->num_inputs, compiled->num_aux);
  if (values.inputs.size() != compiled->num_inputs || values.aux.size() != compiled->num_aux) {
    throw std::invalid_argument(circuit.name() + " partition " + std::to_string(partition) + " has " +
                                std::to_string(values.inputs.size()) + " inputs and " +
                                std::to_string(values.aux.size()) + " aux variables; the compiled circuit has " +
                                std::to_string(compiled->num_inputs) + " and " + std::to_string(compiled->num_aux));
  }
  PartitionWitness w;
  Assignment& z = w.assignment;
  z.inputs = std::move(values.inputs);
  z.compact_aux = std::move(values.aux);
  z.a_aux_density = compiled->a_aux_density;
  z.b_input_density = compiled->b_input_density;
  z.b_aux_density = compiled->b_aux_density;
  w.evaluator = std::move(compiled);
  return w;
}

}  // namespace zkpipe::groth16
