#include "r1cs/proving_assignment.hpp"

#include <stdexcept>

namespace zkpipe::r1cs {

ProvingAssignment::ProvingAssignment(std::size_t constraints_hint, std::size_t aux_hint) {
  a_.reserve(constraints_hint);
  b_.reserve(constraints_hint);
  c_.reserve(constraints_hint);
  aux_.reserve(aux_hint);
  alloc_input([] { return Fr::one(); });
}

Variable ProvingAssignment::alloc(ValueFn value) {
  if (aux_.size() > Variable::kMaxIndex) throw std::length_error("ProvingAssignment: too many aux variables");
  aux_.push_back(value());
  a_aux_density_.push_back();
  b_aux_density_.push_back();
  return Variable::aux(static_cast<std::uint32_t>(aux_.size() - 1));
}

Variable ProvingAssignment::alloc_input(ValueFn value) {
  if (inputs_.size() > Variable::kMaxIndex) throw std::length_error("ProvingAssignment: too many inputs");
  inputs_.push_back(value());
  a_input_density_.push_back();
  b_input_density_.push_back();
  return Variable::input(static_cast<std::uint32_t>(inputs_.size() - 1));
}

Fr ProvingAssignment::evaluate_and_mark(const LC& lc, DensityBitmap& input_density,
                                        DensityBitmap& aux_density) {
  return evaluate_terms(lc.terms(), [&](Variable v) -> const Fr& {
    if (v.is_aux()) {
      aux_density.set(v.index());
      return aux_[v.index()];
    }
    input_density.set(v.index());
    return inputs_[v.index()];
  });
}

Fr ProvingAssignment::evaluate(const LC& lc) const {
  return evaluate_terms(lc.terms(), [&](Variable v) -> const Fr& {
    return v.is_aux() ? aux_[v.index()] : inputs_[v.index()];
  });
}

void ProvingAssignment::enforce(const LC& a, const LC& b, const LC& c) {
  a_.push_back(evaluate_and_mark(a, a_input_density_, a_aux_density_));
  b_.push_back(evaluate_and_mark(b, b_input_density_, b_aux_density_));
  c_.push_back(evaluate(c));
}

}  // namespace zkpipe::r1cs
