#include "r1cs/witness_system.hpp"

#include <stdexcept>

#include "ff/huge_pages.hpp"

namespace zkpipe::r1cs {

WitnessSystem::WitnessSystem(std::size_t inputs_hint, std::size_t aux_hint) : ConstraintSystem(ValuesOnly{}) {
  inputs_.reserve(inputs_hint);
  ff::reserve_on_huge_pages(aux_, aux_hint);
  alloc_input([] { return Fr::one(); });
}

WitnessSystem::WitnessSystem(Segment, std::size_t aux_hint) : ConstraintSystem(ValuesOnly{}) {
  ff::reserve_on_huge_pages(aux_, aux_hint);
}

void WitnessSystem::alloc_bit_values(std::uint64_t bits, unsigned count) {
  if (aux_.size() + count > std::size_t{Variable::kMaxIndex} + 1) {
    throw std::length_error("WitnessSystem: too many aux variables");
  }
  for (unsigned i = 0; i < count; ++i) aux_.push_back(((bits >> i) & 1) != 0 ? Fr::one() : Fr::zero());
}

Variable WitnessSystem::alloc(ValueFn value) {
  if (aux_.size() > Variable::kMaxIndex) throw std::length_error("WitnessSystem: too many aux variables");
  aux_.push_back(value());
  return Variable::aux(static_cast<std::uint32_t>(aux_.size() - 1));
}

Variable WitnessSystem::alloc_input(ValueFn value) {
  if (inputs_.size() > Variable::kMaxIndex) throw std::length_error("WitnessSystem: too many inputs");
  inputs_.push_back(value());
  return Variable::input(static_cast<std::uint32_t>(inputs_.size() - 1));
}

void WitnessSystem::enforce(const LC& /*a*/, const LC& /*b*/, const LC& /*c*/) { ++constraints_; }

}  // namespace zkpipe::r1cs
