#include "pairing/final_exponentiation.hpp"

#include "pairing/bls12_381_params.hpp"

namespace zkpipe::pairing {

namespace {

using ff::Fp12;

// a^x for a cyclotomic a and the (negative) curve parameter x: square-and-multiply
// over |x| with cyclotomic squarings, then the inverse (a conjugation) for the sign.
Fp12 cyclotomic_pow_x(const Fp12& a) {
  Fp12 r = a;
  for (int i = kAbsXBits - 2; i >= 0; --i) {
    r = r.cyclotomic_square();
    if ((kAbsX >> i) & 1) r *= a;
  }
  return kXIsNegative ? r.conjugate() : r;
}

// f^((p^6 - 1)(p^2 + 1)): lands in the cyclotomic subgroup, where inverses are
// conjugates and Granger–Scott squaring applies.
Fp12 easy_part(const Fp12& f) {
  Fp12 t = f.conjugate() * f.inverse();
  return t.frobenius(2) * t;
}

// f^(3·(p^4 - p^2 + 1)/r) through the decomposition of Hayashida, Hayasaka and
// Teruya (eprint 2020/875): 3·(p^4 - p^2 + 1)/r = (x - 1)^2·(x + p)·(x^2 + p^2 - 1) + 3.
Fp12 hard_part(const Fp12& f) {
  Fp12 t0 = cyclotomic_pow_x(f) * f.conjugate();                             // f^(x-1)
  Fp12 t1 = cyclotomic_pow_x(t0) * t0.conjugate();                           // ^(x-1)
  Fp12 t2 = cyclotomic_pow_x(t1) * t1.frobenius(1);                          // ^(x+p)
  Fp12 t3 = cyclotomic_pow_x(cyclotomic_pow_x(t2)) * t2.frobenius(2) * t2.conjugate();  // ^(x^2+p^2-1)
  return t3 * f.cyclotomic_square() * f;                                      // · f^3
}

}  // namespace

Fp12 final_exponentiation(const Fp12& f) { return hard_part(easy_part(f)); }

}  // namespace zkpipe::pairing
