#include "groth16/witness.hpp"

#include "r1cs/sparse_product.hpp"

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

void materialize(PartitionWitness& w) {
  if (!w.is_deferred()) return;
  r1cs::AbcVectors abc = r1cs::evaluate_abc(*w.evaluator, w.inputs, w.compact_aux);
  w.a = std::move(abc.a);
  w.b = std::move(abc.b);
  w.c = std::move(abc.c);
  w.aux = w.compact_aux.expand();
  w.compact_aux = {};
  w.evaluator.reset();
}

}  // namespace zkpipe::groth16
