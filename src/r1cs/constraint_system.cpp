#include "r1cs/constraint_system.hpp"

#include <stdexcept>

namespace zkpipe::r1cs {

void ConstraintSystem::skip_constraints(std::size_t /*count*/) {
  throw std::logic_error("skip_constraints on a system that records constraints");
}

void ConstraintSystem::append_segment(const ConstraintSystem& /*segment*/, std::size_t /*copies*/) {
  throw std::logic_error("append_segment on a system that makes no segments");
}

void ConstraintSystem::alloc_bit_values(std::uint64_t bits, unsigned count) {
  for (unsigned i = 0; i < count; ++i) {
    const bool bit = ((bits >> i) & 1) != 0;
    alloc([bit] { return bit ? Fr::one() : Fr::zero(); });
  }
}

void enforce_input_constraints(ConstraintSystem& cs) {
  const std::size_t n = cs.num_inputs();
  for (std::size_t i = 0; i < n; ++i) {
    cs.enforce(LC(Variable::input(static_cast<std::uint32_t>(i))), LC(), LC());
  }
}

}  // namespace zkpipe::r1cs
