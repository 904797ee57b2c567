// Computes only the assignment (inputs and aux), for when the constraints are
// evaluated elsewhere, e.g. by the pre-compiled evaluator. A values-only system:
// gadgets build no linear combination for it (constraint_system.hpp). The aux values
// are stored compact as they are allocated (0/1 as bits: compact_values.hpp).
#pragma once

#include <vector>

#include "r1cs/compact_values.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/partitioned_circuit.hpp"

namespace zkpipe::r1cs {

class WitnessSystem final : public ConstraintSystem {
 public:
  // Allocates the constant ONE as input 0. The hints only pre-size the vectors.
  explicit WitnessSystem(std::size_t inputs_hint = 0, std::size_t aux_hint = 0);

  // A system for one independent part of a circuit, synthesized apart from the rest
  // (on another thread): no ONE of its own; its values are appended after those of
  // the parts before it. Its variable indices are local (values-only gadgets never
  // read them).
  struct Segment {};
  WitnessSystem(Segment, std::size_t aux_hint);

  Variable alloc(ValueFn value) override;
  Variable alloc_input(ValueFn value) override;
  void enforce(const LC& a, const LC& b, const LC& c) override;
  void skip_constraints(std::size_t count) override { constraints_ += count; }
  void alloc_bit_values(std::uint64_t bits, unsigned count) override;

  std::size_t num_inputs() const override { return inputs_.size(); }
  std::size_t num_aux() const override { return aux_.size(); }
  std::size_t num_constraints() const override { return constraints_; }

  const std::vector<Fr>& inputs() const { return inputs_; }
  // The aux values in full (a copy: for tests and small circuits).
  std::vector<Fr> aux_values() const;
  // Appends a segment's inputs and aux after this system's; the segment is left empty, its aux
  // memory kept, so that it can take the next part.
  void append(WitnessSystem&& segment);
  WitnessValues values() &&;

 private:
  std::vector<Fr> inputs_;
  CompactValues::Builder aux_;
  std::size_t constraints_ = 0;
};

}  // namespace zkpipe::r1cs
