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
  place_copies(base, segment->num_inputs(), segment->num_aux(), num_inputs(), num_aux(), copies);  // the checks
  constraints_ += copies * segment->constraints_;
  nonzeros_ += copies * segment->nonzeros_;
  append_density_copies(a_input_density_, segment->a_input_density_, base.inputs, copies);
  append_density_copies(b_input_density_, segment->b_input_density_, base.inputs, copies);
  append_density_copies(a_aux_density_, segment->a_aux_density_, base.aux, copies);
  append_density_copies(b_aux_density_, segment->b_aux_density_, base.aux, copies);
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
