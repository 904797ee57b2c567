#include "ff/fr.hpp"

#include <stdexcept>
#include <string>

namespace zkpipe::ff {

Fr root_of_unity(unsigned log_n) {
  if (log_n > Fr::kTwoAdicity) {
    throw std::invalid_argument("root_of_unity: 2^" + std::to_string(log_n) +
                                " exceeds Fr's two-adicity of 32");
  }
  // ω_32 = g^t with t the odd part; square down to the requested order.
  Fr w = multiplicative_generator().pow(Fr::kOddPart);
  for (unsigned i = log_n; i < Fr::kTwoAdicity; ++i) w = w.square();
  return w;
}

}  // namespace zkpipe::ff
