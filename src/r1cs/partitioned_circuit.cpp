#include "r1cs/partitioned_circuit.hpp"

#include "r1cs/witness_system.hpp"

namespace zkpipe::r1cs {

void PartitionedCircuit::synthesize_shape(ConstraintSystem& cs, std::size_t partition) const {
  synthesize(cs, partition);
}

WitnessValues PartitionedCircuit::synthesize_values(std::size_t partition, std::size_t inputs_hint,
                                                    std::size_t aux_hint) const {
  WitnessSystem cs(inputs_hint, aux_hint);
  synthesize(cs, partition);
  return std::move(cs).values();
}

}  // namespace zkpipe::r1cs
