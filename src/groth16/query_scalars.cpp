#include "groth16/query_scalars.hpp"

#include "r1cs/density.hpp"

namespace zkpipe::groth16 {

using ff::Fr;

namespace {

void gather(const std::vector<Fr>& values, const r1cs::DensityBitmap& density, std::vector<Fr>& out) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (density.test(i)) out.push_back(values[i]);
  }
}

}  // namespace

std::vector<Fr> a_query_scalars(const PartitionWitness& w) {
  std::vector<Fr> s(w.inputs);
  gather(w.aux, w.a_aux_density, s);
  return s;
}

std::vector<Fr> b_query_scalars(const PartitionWitness& w) {
  std::vector<Fr> s;
  s.reserve(w.b_input_density.count() + w.b_aux_density.count());
  gather(w.inputs, w.b_input_density, s);
  gather(w.aux, w.b_aux_density, s);
  return s;
}

}  // namespace zkpipe::groth16
