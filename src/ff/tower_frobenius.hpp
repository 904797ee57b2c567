// Frobenius constants of the Fp2 → Fp6 → Fp12 tower.
//
// Fp12 = Fp2[w] / (w^6 - ξ) with w^2 = v, so (w^i)^(p^k) = w^i · γ_k^i where
// γ_k = ξ^((p^k - 1)/6). The table is derived from ξ and p at compile time in
// tower_frobenius.cpp (γ_1 by exponentiation, γ_(k+1) = conj(γ_k)·γ_1).
#pragma once

#include <array>

#include "ff/fp2.hpp"

namespace zkpipe::ff {

struct TowerFrobenius {
  // gamma[k][i] = ξ^(i·(p^k - 1)/6) for k in [0, 12) and i in [0, 6).
  std::array<std::array<Fp2, 6>, 12> gamma;
};

const TowerFrobenius& tower_frobenius();

}  // namespace zkpipe::ff
