#include "ec/endomorphism.hpp"

namespace zkpipe::ec {

namespace {

// a / d for a small divisor d (exact or floored).
ff::Limbs<6> divide_small(ff::Limbs<6> a, ff::u64 d) {
  ff::u128 rem = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    ff::u128 cur = (rem << 64) | a[i];
    a[i] = static_cast<ff::u64>(cur / d);
    rem = cur % d;
  }
  return a;
}

Fp2 pow(const Fp2& base, const ff::Limbs<6>& e) {
  Fp2 r = Fp2::one();
  for (std::size_t i = ff::limbs_bit_length(e); i-- > 0;) {
    r = r.square();
    if (ff::limbs_bit(e, i)) r *= base;
  }
  return r;
}

PsiCoefficients compute_psi_coefficients() {
  ff::Limbs<6> p_minus_1 = Fp::kModulus;
  p_minus_1[0] -= 1;  // p is odd: no borrow
  const Fp2 xi = Fp2::one().mul_by_nonresidue();
  return {pow(xi, divide_small(p_minus_1, 3)).inverse(),
          pow(xi, divide_small(p_minus_1, 2)).inverse()};
}

}  // namespace

const PsiCoefficients& psi_coefficients() {
  static const PsiCoefficients coefficients = compute_psi_coefficients();
  return coefficients;
}

}  // namespace zkpipe::ec
