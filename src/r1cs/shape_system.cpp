#include "r1cs/shape_system.hpp"

#include <stdexcept>

namespace zkpipe::r1cs {

namespace {

void mark(const LC& lc, DensityBitmap& inputs, DensityBitmap& aux) {
  for (const Term& t : lc.terms()) (t.var.is_aux() ? aux : inputs).set(t.var.index());
}

}  // namespace

ShapeSystem::ShapeSystem() {
  alloc_input([] { return Fr::one(); });
}

Variable ShapeSystem::alloc(ValueFn /*value*/) {
  if (num_aux() > Variable::kMaxIndex) throw std::length_error("ShapeSystem: too many aux variables");
  a_aux_density_.push_back();
  b_aux_density_.push_back();
  return Variable::aux(static_cast<std::uint32_t>(num_aux() - 1));
}

Variable ShapeSystem::alloc_input(ValueFn /*value*/) {
  if (num_inputs() > Variable::kMaxIndex) throw std::length_error("ShapeSystem: too many inputs");
  a_input_density_.push_back();
  b_input_density_.push_back();
  return Variable::input(static_cast<std::uint32_t>(num_inputs() - 1));
}

void ShapeSystem::enforce(const LC& a, const LC& b, const LC& c) {
  ++constraints_;
  nonzeros_ += a.size() + b.size() + c.size();
  mark(a, a_input_density_, a_aux_density_);
  mark(b, b_input_density_, b_aux_density_);
}

}  // namespace zkpipe::r1cs
