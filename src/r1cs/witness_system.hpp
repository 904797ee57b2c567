// Computes only the assignment (inputs and aux), for when the constraints are
// evaluated elsewhere, e.g. by the pre-compiled evaluator. A values-only system:
// gadgets build no linear combination for it (constraint_system.hpp).
#pragma once

#include <vector>

#include "r1cs/constraint_system.hpp"

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

  const std::vector<Fr>& inputs() const& { return inputs_; }
  const std::vector<Fr>& aux() const& { return aux_; }
  Assignment assignment() const { return Assignment{inputs_, aux_}; }
  std::vector<Fr> inputs() && { return std::move(inputs_); }
  std::vector<Fr> aux() && { return std::move(aux_); }

 private:
  std::vector<Fr> inputs_;
  std::vector<Fr> aux_;
  std::size_t constraints_ = 0;
};

}  // namespace zkpipe::r1cs
