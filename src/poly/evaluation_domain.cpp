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
    : EvaluationDomain(checked_log_size(min_size), ff::root_of_unity(checked_log_size(min_size)),
                       ff::multiplicative_generator()) {}

EvaluationDomain::EvaluationDomain(std::size_t min_size, const Fr& root_generator, const Fr& coset_shift)
    : EvaluationDomain(checked_log_size(min_size),
                       root_of_unity_from(root_generator, checked_log_size(min_size)), coset_shift) {
  if (vanishing_on_coset_.is_zero()) {
    throw std::invalid_argument("EvaluationDomain: the coset shift lies in the domain (Z(shift) = 0)");
  }
}

EvaluationDomain::EvaluationDomain(unsigned log_size, const Fr& omega, const Fr& coset_shift)
    : log_size_(log_size),
      omega_(omega),
      omega_inv_(omega_.inverse()),
      size_inv_(Fr::from_u64(size()).inverse()),
      shift_(coset_shift),
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

Fr root_of_unity_from(const Fr& nonresidue, unsigned log_n) {
  if (log_n > Fr::kTwoAdicity) {
    throw std::invalid_argument("root_of_unity_from: 2^" + std::to_string(log_n) +
                                " exceeds Fr's two-adicity of 32");
  }
  if (nonresidue.legendre() != -1) {
    throw std::invalid_argument("root_of_unity_from: the generator is not a quadratic non-residue");
  }
  // A non-residue's odd-part power has order exactly 2^32; squaring halves it.
  Fr w = nonresidue.pow(Fr::kOddPart);
  for (unsigned i = log_n; i < Fr::kTwoAdicity; ++i) w = w.square();
  return w;
}

}  // namespace zkpipe::poly
