// Computes only the assignment (inputs and aux), for when the constraints are
// evaluated elsewhere, e.g. by the pre-compiled CSR evaluator.
#pragma once

#include <vector>

#include "r1cs/constraint_system.hpp"

namespace zkpipe::r1cs {

class WitnessSystem final : public ConstraintSystem {
 public:
  // Allocates the constant ONE as input 0.
  WitnessSystem();

  Variable alloc(ValueFn value) override;
  Variable alloc_input(ValueFn value) override;
  void enforce(const LC& a, const LC& b, const LC& c) override;

  std::size_t num_inputs() const override { return inputs_.size(); }
  std::size_t num_aux() const override { return aux_.size(); }
  std::size_t num_constraints() const override { return constraints_; }

  const std::vector<Fr>& inputs() const { return inputs_; }
  const std::vector<Fr>& aux() const { return aux_; }
  Assignment assignment() const { return Assignment{inputs_, aux_}; }

 private:
  std::vector<Fr> inputs_;
  std::vector<Fr> aux_;
  std::size_t constraints_ = 0;
};

}  // namespace zkpipe::r1cs
