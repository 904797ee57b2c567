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

ShapeSystem::ShapeSystem(Segment, SegmentBase base)
    : segment_(base),
      a_input_density_(base.inputs),
      a_aux_density_(base.aux),
      b_input_density_(base.inputs),
      b_aux_density_(base.aux) {}

std::unique_ptr<ConstraintSystem> ShapeSystem::new_segment() const {
  if (segment_) throw std::logic_error("new_segment on a ShapeSystem segment");
  return std::make_unique<ShapeSystem>(Segment{}, SegmentBase{num_inputs(), num_aux()});
}

void ShapeSystem::append_segment(const ConstraintSystem& part, std::size_t copies) {
  const auto* segment = dynamic_cast<const ShapeSystem*>(&part);
  if (segment == nullptr || !segment->segment_) {
    throw std::invalid_argument("ShapeSystem::append_segment: not a ShapeSystem segment");
  }
  const SegmentBase base = *segment->segment_;
  if (base.inputs > num_inputs() || base.aux > num_aux()) {
    throw std::invalid_argument("ShapeSystem::append_segment: the segment reads variables this system lacks");
  }
  if (num_inputs() + copies * (segment->num_inputs() - base.inputs) > std::size_t{Variable::kMaxIndex} + 1 ||
      num_aux() + copies * (segment->num_aux() - base.aux) > std::size_t{Variable::kMaxIndex} + 1) {
    throw std::length_error("ShapeSystem: too many variables");
  }
  constraints_ += copies * segment->constraints_;
  nonzeros_ += copies * segment->nonzeros_;
  a_input_density_.merge_prefix(segment->a_input_density_, base.inputs);
  b_input_density_.merge_prefix(segment->b_input_density_, base.inputs);
  a_aux_density_.merge_prefix(segment->a_aux_density_, base.aux);
  b_aux_density_.merge_prefix(segment->b_aux_density_, base.aux);
  for (std::size_t k = 0; k < copies; ++k) {
    a_input_density_.append(segment->a_input_density_, base.inputs);
    b_input_density_.append(segment->b_input_density_, base.inputs);
    a_aux_density_.append(segment->a_aux_density_, base.aux);
    b_aux_density_.append(segment->b_aux_density_, base.aux);
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
