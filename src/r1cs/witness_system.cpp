#include "r1cs/witness_system.hpp"

#include <stdexcept>

namespace zkpipe::r1cs {

WitnessSystem::WitnessSystem(std::size_t inputs_hint, std::size_t aux_hint) : ConstraintSystem(ValuesOnly{}) {
  inputs_.reserve(inputs_hint);
  aux_ = CompactValues::Builder(aux_hint);
  alloc_input([] { return Fr::one(); });
}

WitnessSystem::WitnessSystem(Segment, std::size_t aux_hint)
    : ConstraintSystem(ValuesOnly{}), aux_(CompactValues::Builder(aux_hint)) {}

void WitnessSystem::alloc_bit_values(std::uint64_t bits, unsigned count) {
  if (aux_.size() + count > std::size_t{Variable::kMaxIndex} + 1) {
    throw std::length_error("WitnessSystem: too many aux variables");
  }
  aux_.append_bits(bits, count);
}

std::vector<Fr> WitnessSystem::aux_values() const { return CompactValues::Builder(aux_).finish().expand(); }

void WitnessSystem::append(WitnessSystem&& segment) {
  inputs_.insert(inputs_.end(), segment.inputs_.begin(), segment.inputs_.end());
  segment.inputs_ = {};
  aux_.append(std::move(segment.aux_));
  constraints_ += segment.constraints_;
  segment.constraints_ = 0;
}

WitnessValues WitnessSystem::values() && { return {std::move(inputs_), std::move(aux_).finish()}; }

Variable WitnessSystem::alloc(ValueFn value) {
  if (aux_.size() > Variable::kMaxIndex) throw std::length_error("WitnessSystem: too many aux variables");
  aux_.append(value());
  return Variable::aux(static_cast<std::uint32_t>(aux_.size() - 1));
}

Variable WitnessSystem::alloc_input(ValueFn value) {
  if (inputs_.size() > Variable::kMaxIndex) throw std::length_error("WitnessSystem: too many inputs");
  inputs_.push_back(value());
  return Variable::input(static_cast<std::uint32_t>(inputs_.size() - 1));
}

void WitnessSystem::enforce(const LC& /*a*/, const LC& /*b*/, const LC& /*c*/) { ++constraints_; }

}  // namespace zkpipe::r1cs
