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

ShapeSystem::ShapeSystem(Segment) : segment_(true) {
  // Index 0 stands for the ONE of the system the part is appended to.
  a_input_density_.push_back();
  b_input_density_.push_back();
}

std::unique_ptr<ConstraintSystem> ShapeSystem::new_segment() const { return std::make_unique<ShapeSystem>(Segment{}); }

void ShapeSystem::append_segment(const ConstraintSystem& part, std::size_t copies) {
  const auto* segment = dynamic_cast<const ShapeSystem*>(&part);
  if (segment == nullptr || !segment->segment_) {
    throw std::invalid_argument("ShapeSystem::append_segment: not a ShapeSystem segment");
  }
  if (num_inputs() + copies * (segment->num_inputs() - 1) > std::size_t{Variable::kMaxIndex} + 1 ||
      num_aux() + copies * segment->num_aux() > std::size_t{Variable::kMaxIndex} + 1) {
    throw std::length_error("ShapeSystem: too many variables");
  }
  constraints_ += copies * segment->constraints_;
  nonzeros_ += copies * segment->nonzeros_;
  if (segment->a_input_density_.test(0)) a_input_density_.set(0);
  if (segment->b_input_density_.test(0)) b_input_density_.set(0);
  for (std::size_t k = 0; k < copies; ++k) {
    a_input_density_.append(segment->a_input_density_, 1);
    b_input_density_.append(segment->b_input_density_, 1);
    a_aux_density_.append(segment->a_aux_density_, 0);
    b_aux_density_.append(segment->b_aux_density_, 0);
  }
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
