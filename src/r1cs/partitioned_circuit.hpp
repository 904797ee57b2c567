// A proof's circuit as the engine sees it: P partitions of one shape (the same
// constraints, different witnesses and public inputs), each synthesized on its own.
// Setup records any one partition; the prover synthesizes each.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"

namespace zkpipe::r1cs {

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
};

}  // namespace zkpipe::r1cs
