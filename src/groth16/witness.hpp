// What synthesis hands the prover for one partition, in two parts of different
// lifetimes:
//   a, b, c      one value per constraint, the big vectors: the prover's start()
//                consumes them (it takes the witness by value) and they are gone
//                when it returns;
//   assignment   the variables' values and the A/B densities: finish() still reads
//                them, so start() hands them to the pending proof, which co-owns
//                them with whoever else asks (PendingProof::assignment).
//
// The pce path hands over a deferred witness instead: the aux values compact (0/1
// as bits) and the circuit's compiled evaluator, no a, b, c. It stays that small
// while it waits for a device; the backend's start() materializes it (a, b, c and
// the full aux) — on the host for the CPU backend.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/compact_values.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/density.hpp"
#include "r1cs/proving_assignment.hpp"

namespace zkpipe::groth16 {

struct Assignment {
  std::vector<ff::Fr> inputs;  // ONE first
  // The aux values in full, or compact (a deferred witness's form), or both: a
  // backend that evaluates a deferred witness on its device keeps only the compact
  // form on the host, and expands it there only if its finish() reads the values.
  std::vector<ff::Fr> aux;
  r1cs::CompactValues compact_aux;
  r1cs::DensityBitmap a_aux_density;
  r1cs::DensityBitmap b_input_density;
  r1cs::DensityBitmap b_aux_density;

  // Heap bytes held (capacities), for the ledger.
  std::size_t bytes() const;
};

// Move-only: a copy of a partition's witness (16 GiB at 2^27) is never wanted by accident.
struct PartitionWitness {
  PartitionWitness() = default;
  PartitionWitness(PartitionWitness&&) = default;
  PartitionWitness& operator=(PartitionWitness&&) = default;
  PartitionWitness(const PartitionWitness&) = delete;
  PartitionWitness& operator=(const PartitionWitness&) = delete;

  std::vector<ff::Fr> a;
  std::vector<ff::Fr> b;
  std::vector<ff::Fr> c;
  Assignment assignment;
  // Set only while deferred (then a, b, c and the assignment's full aux are empty).
  std::shared_ptr<const r1cs::CompiledR1cs> evaluator;

  bool is_deferred() const { return evaluator != nullptr; }
  // Heap bytes a, b, c hold (capacities), for the ledger.
  std::size_t abc_bytes() const;

  static PartitionWitness from(r1cs::ProvingAssignment&& cs);
};

// A deferred witness into the ordinary form: a, b, c by the sparse product, the aux
// values expanded; the compact values and the evaluator reference are dropped. A
// witness that is not deferred is left as it is.
void materialize(PartitionWitness& witness);

}  // namespace zkpipe::groth16
