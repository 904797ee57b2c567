#include "ff/tower_frobenius.hpp"

namespace zkpipe::ff {

namespace {

// a / d for a small divisor d that divides a exactly.
constexpr Fp::Repr divide_exact(Fp::Repr a, u64 d) {
  u128 rem = 0;
  for (std::size_t i = Fp::kLimbs; i-- > 0;) {
    u128 cur = (rem << 64) | a[i];
    a[i] = static_cast<u64>(cur / d);
    rem = cur % d;
  }
  return a;
}

constexpr Fp2 pow(const Fp2& base, const Fp::Repr& e) {
  Fp2 r = Fp2::one();
  for (std::size_t i = limbs_bit_length(e); i-- > 0;) {
    r = r.square();
    if (limbs_bit(e, i)) r *= base;
  }
  return r;
}

constexpr TowerFrobenius make_table() {
  constexpr Fp2 kXi = Fp2::one().mul_by_nonresidue();
  Fp::Repr p_minus_1 = Fp::kModulus;
  p_minus_1[0] -= 1;  // p is odd, so no borrow
  const Fp2 gamma1 = pow(kXi, divide_exact(p_minus_1, 6));

  TowerFrobenius t{};
  Fp2 gamma_k = Fp2::one();
  for (std::size_t k = 0; k < 12; ++k) {
    Fp2 power = Fp2::one();
    for (std::size_t i = 0; i < 6; ++i) {
      t.gamma[k][i] = power;
      power *= gamma_k;
    }
    gamma_k = gamma_k.conjugate() * gamma1;
  }
  return t;
}

constexpr TowerFrobenius kTable = make_table();

}  // namespace

const TowerFrobenius& tower_frobenius() { return kTable; }

}  // namespace zkpipe::ff
