#include "groth16/witness.hpp"

namespace zkpipe::groth16 {

PartitionWitness PartitionWitness::from(r1cs::ProvingAssignment&& cs) {
  PartitionWitness w;
  w.a = cs.a();
  w.b = cs.b();
  w.c = cs.c();
  w.inputs = cs.inputs();
  w.aux = cs.aux();
  w.a_aux_density = cs.a_aux_density();
  w.b_input_density = cs.b_input_density();
  w.b_aux_density = cs.b_aux_density();
  return w;
}

}  // namespace zkpipe::groth16
