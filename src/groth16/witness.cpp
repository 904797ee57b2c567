#include "groth16/witness.hpp"

#include "r1cs/sparse_product.hpp"

namespace zkpipe::groth16 {

namespace {

std::size_t vector_bytes(const std::vector<ff::Fr>& v) { return v.capacity() * sizeof(ff::Fr); }
std::size_t bitmap_bytes(const r1cs::DensityBitmap& d) { return d.words().capacity() * sizeof(std::uint64_t); }

}  // namespace

std::size_t Assignment::bytes() const {
  return vector_bytes(inputs) + vector_bytes(aux) + compact_aux.bytes() + bitmap_bytes(a_aux_density) +
         bitmap_bytes(b_input_density) + bitmap_bytes(b_aux_density);
}

std::size_t PartitionWitness::abc_bytes() const { return vector_bytes(a) + vector_bytes(b) + vector_bytes(c); }

PartitionWitness PartitionWitness::from(r1cs::ProvingAssignment&& cs) {
  PartitionWitness w;
  Assignment& z = w.assignment;
  z.a_aux_density = cs.a_aux_density();
  z.b_input_density = cs.b_input_density();
  z.b_aux_density = cs.b_aux_density();
  w.a = std::move(cs).a();
  w.b = std::move(cs).b();
  w.c = std::move(cs).c();
  z.inputs = std::move(cs).inputs();
  z.aux = std::move(cs).aux();
  // Synthesis grows the vectors by doubling; hand the prover (and the engine's
  // ledger, which counts capacity) exactly what they hold.
  for (auto* v : {&w.a, &w.b, &w.c, &z.inputs, &z.aux}) v->shrink_to_fit();
  return w;
}

void materialize(PartitionWitness& w) {
  if (!w.is_deferred()) return;
  Assignment& z = w.assignment;
  r1cs::AbcVectors abc = r1cs::evaluate_abc(*w.evaluator, z.inputs, z.compact_aux);
  w.a = std::move(abc.a);
  w.b = std::move(abc.b);
  w.c = std::move(abc.c);
  z.aux = z.compact_aux.expand();
  z.compact_aux = {};
  w.evaluator.reset();
}

}  // namespace zkpipe::groth16
