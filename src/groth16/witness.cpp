#include "groth16/witness.hpp"

namespace zkpipe::groth16 {

PartitionWitness PartitionWitness::from(r1cs::ProvingAssignment&& cs) {
  PartitionWitness w;
  w.a_aux_density = cs.a_aux_density();
  w.b_input_density = cs.b_input_density();
  w.b_aux_density = cs.b_aux_density();
  w.a = std::move(cs).a();
  w.b = std::move(cs).b();
  w.c = std::move(cs).c();
  w.inputs = std::move(cs).inputs();
  w.aux = std::move(cs).aux();
  // Synthesis grows the vectors by doubling; hand the prover (and the engine's
  // ledger, which counts capacity) exactly what they hold.
  for (auto* v : {&w.a, &w.b, &w.c, &w.inputs, &w.aux}) v->shrink_to_fit();
  return w;
}

}  // namespace zkpipe::groth16
