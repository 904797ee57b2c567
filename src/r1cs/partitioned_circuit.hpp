// A proof's circuit as the engine sees it: P partitions of one shape (the same
// constraints, different witnesses and public inputs), each synthesized on its own.
// Setup records any one partition; the prover synthesizes each.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/compact_values.hpp"
#include "r1cs/constraint_system.hpp"

namespace zkpipe::r1cs {

// A partition's assignment: the public inputs (ONE first) and the aux values, compact.
struct WitnessValues {
  std::vector<Fr> inputs;
  CompactValues aux;
};

class PartitionedCircuit {
 public:
  virtual ~PartitionedCircuit() = default;

  virtual std::string name() const = 0;
  virtual std::size_t partitions() const = 0;

  // Allocates the partition's public inputs and private variables and enforces its
  // constraints (not the Groth16 input constraints: the caller adds those).
  virtual void synthesize(ConstraintSystem& cs, std::size_t partition) const = 0;

  // The partition's public inputs as a verifier derives them (ONE excluded).
  virtual std::vector<Fr> public_inputs(std::size_t partition) const = 0;

  // The partition's constraints into a shape-only system (compiling the evaluator,
  // counting the circuit): what synthesize() records. This default runs
  // synthesize(); circuits made of identical parts override it to record one part
  // in cs.new_segment() and append copies of it, which takes a copy's time, not a
  // synthesis's (and fall back to synthesize() where cs makes no segments).
  virtual void synthesize_shape(ConstraintSystem& cs, std::size_t partition) const;

  // The partition's assignment only, exactly as synthesize() on a WitnessSystem
  // computes it; the hints pre-size the vectors. This default runs synthesize() on
  // one WitnessSystem; circuits made of independent parts override it to compute
  // the parts on all cores and lay them out in the same variable order.
  virtual WitnessValues synthesize_values(std::size_t partition, std::size_t inputs_hint = 0,
                                          std::size_t aux_hint = 0) const;

  // Of a partition's `aux` private values, how many may be wide (neither 0 nor 1): a
  // compact witness stores those in full, so the memory ledger charges them to a
  // partition in synthesis and the admission budget reserves them before the real
  // size is known. 0, the default: few enough not to count (a hash circuit's values
  // are nearly all bits).
  virtual std::size_t wide_aux_bound(std::size_t /*aux*/) const { return 0; }
};

}  // namespace zkpipe::r1cs
