#include "r1cs/constraint_system.hpp"

namespace zkpipe::r1cs {

void enforce_input_constraints(ConstraintSystem& cs) {
  const std::size_t n = cs.num_inputs();
  for (std::size_t i = 0; i < n; ++i) {
    cs.enforce(LC(Variable::input(static_cast<std::uint32_t>(i))), LC(), LC());
  }
}

}  // namespace zkpipe::r1cs
