#include "gadgets/multieq.hpp"

#include <stdexcept>

namespace zkpipe::gadgets {

void MultiEq::enforce_equal(std::size_t num_bits, const r1cs::LC& lhs, const r1cs::LC& rhs) {
  if (bits_used_ + num_bits >= kCapacityBits) flush();
  if (num_bits >= kCapacityBits) throw std::invalid_argument("MultiEq: an equality wider than ff::Fr's capacity");
  if (!cs_.values_only()) {
    ff::Fr shift = ff::Fr::one();
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
    cs_.enforce(lhs_, r1cs::LC(r1cs::Variable::one()), rhs_);
    lhs_ = r1cs::LC();
    rhs_ = r1cs::LC();
  }
  bits_used_ = 0;
}

}  // namespace zkpipe::gadgets
