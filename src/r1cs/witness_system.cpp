#include "r1cs/witness_system.hpp"

#include <stdexcept>

namespace zkpipe::r1cs {

WitnessSystem::WitnessSystem() {
  alloc_input([] { return Fr::one(); });
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
