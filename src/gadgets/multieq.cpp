#include "gadgets/multieq.hpp"

#include <stdexcept>

namespace zkpipe::r1cs {

void MultiEq::enforce_equal(std::size_t num_bits, const LC& lhs, const LC& rhs) {
  if (bits_used_ + num_bits >= kCapacityBits) flush();
  if (num_bits >= kCapacityBits) throw std::invalid_argument("MultiEq: an equality wider than Fr's capacity");
  if (!cs_.values_only()) {
    Fr shift = Fr::one();
    for (std::size_t i = 0; i < bits_used_; ++i) shift = shift.dbl();
    lhs_ += shift * lhs;
    rhs_ += shift * rhs;
  }
  bits_used_ += num_bits;
}

void MultiEq::flush() {
  if (bits_used_ == 0) return;
  if (cs_.values_only()) {
    cs_.skip_constraints(1);
  } else {
    cs_.enforce(lhs_, LC(Variable::one()), rhs_);
    lhs_ = LC();
    rhs_ = LC();
  }
  bits_used_ = 0;
}

}  // namespace zkpipe::r1cs
