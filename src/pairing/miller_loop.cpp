#include "pairing/miller_loop.hpp"

#include <vector>

#include "pairing/bls12_381_params.hpp"

namespace zkpipe::pairing {

namespace {

using ff::Fp12;

// A prepared line evaluated at P: four Fp multiplications, one sparse Fp12 product.
Fp12 mul_by_line(const Fp12& f, const LineCoefficients& line, const G1Affine& p) {
  return f.mul_by_014(line.c0, line.c1 * p.x, line.c2 * p.y);
}

}  // namespace

Fp12 miller_loop(std::span<const PreparedPair> terms) {
  std::vector<PreparedPair> active;
  active.reserve(terms.size());
  for (const PreparedPair& t : terms) {
    if (!t.p.is_identity() && !t.q->is_identity()) active.push_back(t);
  }
  if (active.empty()) return Fp12::one();

  Fp12 f = Fp12::one();
  std::size_t line = 0;
  for (int i = kAbsXBits - 2; i >= 0; --i) {
    if (i != kAbsXBits - 2) f = f.square();
    for (const PreparedPair& t : active) f = mul_by_line(f, t.q->lines()[line], t.p);
    ++line;
    if ((kAbsX >> i) & 1) {
      for (const PreparedPair& t : active) f = mul_by_line(f, t.q->lines()[line], t.p);
      ++line;
    }
  }
  // f_{-n} and 1/f_n agree after the final exponentiation, and there 1/f is conj(f).
  return kXIsNegative ? f.conjugate() : f;
}

}  // namespace zkpipe::pairing
