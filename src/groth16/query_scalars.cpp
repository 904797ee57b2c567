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

std::vector<Fr> a_query_scalars(const Assignment& z) {
  std::vector<Fr> s(z.inputs);
  gather(z.aux, z.a_aux_density, s);
  return s;
}

std::vector<Fr> b_query_scalars(const Assignment& z) {
  std::vector<Fr> s;
  s.reserve(z.b_input_density.count() + z.b_aux_density.count());
  gather(z.inputs, z.b_input_density, s);
  gather(z.aux, z.b_aux_density, s);
  return s;
}

}  // namespace zkpipe::groth16
