// What synthesis hands the prover for one partition. a, b, c (one value per
// constraint) are the big vectors: the prover's start() consumes them, after which
// the caller frees them; the assignment and densities live until finish().
#pragma once

#include <vector>

#include "ff/fr.hpp"
#include "r1cs/density.hpp"
#include "r1cs/proving_assignment.hpp"

namespace zkpipe::groth16 {

struct PartitionWitness {
  std::vector<ff::Fr> a;
  std::vector<ff::Fr> b;
  std::vector<ff::Fr> c;
  std::vector<ff::Fr> inputs;  // ONE first
  std::vector<ff::Fr> aux;
  r1cs::DensityBitmap a_aux_density;
  r1cs::DensityBitmap b_input_density;
  r1cs::DensityBitmap b_aux_density;

  // Frees a, b, c (returning their memory to the allocator).
  void release_abc() {
    std::vector<ff::Fr>().swap(a);
    std::vector<ff::Fr>().swap(b);
    std::vector<ff::Fr>().swap(c);
  }

  static PartitionWitness from(r1cs::ProvingAssignment&& cs);
};

}  // namespace zkpipe::groth16
