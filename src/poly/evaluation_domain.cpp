#include "poly/evaluation_domain.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace zkpipe::poly {

using ff::Fr;

namespace {

unsigned checked_log_size(std::size_t min_size) {
  if (min_size == 0) {
    throw std::invalid_argument("EvaluationDomain: requested size 0; a domain needs at least 1 point");
  }
  const auto log_size = static_cast<unsigned>(std::bit_width(min_size - 1));
  if (log_size > EvaluationDomain::kMaxLogSize) {
    throw std::invalid_argument("EvaluationDomain: requested size " + std::to_string(min_size) +
                                " needs 2^" + std::to_string(log_size) +
                                " points, above the maximum of 2^" +
                                std::to_string(EvaluationDomain::kMaxLogSize));
  }
  return log_size;
}

}  // namespace

EvaluationDomain::EvaluationDomain(std::size_t min_size)
    : log_size_(checked_log_size(min_size)),
      omega_(ff::root_of_unity(log_size_)),
      omega_inv_(omega_.inverse()),
      size_inv_(Fr::from_u64(size()).inverse()),
      shift_(ff::multiplicative_generator()),
      shift_inv_(shift_.inverse()),
      vanishing_on_coset_(vanishing_at(shift_)),
      vanishing_on_coset_inv_(vanishing_on_coset_.inverse()),
      shape_(FourStepShape::for_log_size(log_size_)),
      forward_(omega_, shape_),
      inverse_(omega_inv_, shape_) {}

Fr EvaluationDomain::vanishing_at(const Fr& x) const {
  Fr power = x;
  for (unsigned i = 0; i < log_size_; ++i) power = power.square();
  return power - Fr::one();
}

}  // namespace zkpipe::poly
