// What synthesis hands the prover for one partition. a, b, c (one value per
// constraint) are the big vectors: the prover's start() consumes them, after which
// the caller frees them; the assignment and densities live until finish().
//
// The pce path hands over a deferred witness instead: the aux values compact (0/1
// as bits) and the circuit's compiled evaluator, no a, b, c. It stays that small
// while it waits for a device; the backend's start() materializes it (a, b, c and
// the full aux) — on the host for the CPU backend.
#pragma once

#include <memory>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/compact_values.hpp"
#include "r1cs/compiled_r1cs.hpp"
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
  // Set only while deferred (then a, b, c and aux are empty).
  r1cs::CompactValues compact_aux;
  std::shared_ptr<const r1cs::CompiledR1cs> evaluator;

  bool is_deferred() const { return evaluator != nullptr; }

  // Frees a, b, c (returning their memory to the allocator).
  void release_abc() {
    std::vector<ff::Fr>().swap(a);
    std::vector<ff::Fr>().swap(b);
    std::vector<ff::Fr>().swap(c);
  }

  static PartitionWitness from(r1cs::ProvingAssignment&& cs);
};

// A deferred witness into the ordinary form: a, b, c by the sparse product, the aux
// values expanded; the compact values and the evaluator reference are dropped. A
// witness that is not deferred is left as it is.
void materialize(PartitionWitness& witness);

}  // namespace zkpipe::groth16
