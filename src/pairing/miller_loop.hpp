// The Miller loop of the optimal ate pairing over x = -0xd201000000010000.
#pragma once

#include <span>

#include "ff/fp12.hpp"
#include "pairing/g2_prepared.hpp"

namespace zkpipe::pairing {

// One term of a product of pairings, with its G2 side prepared.
struct PreparedPair {
  G1Affine p;
  const G2Prepared* q;
};

// Π f_{x,Q_i}(P_i) with one shared accumulator: a single squaring per bit for all
// terms. Terms with an identity side contribute 1. The result still needs
// final_exponentiation.
ff::Fp12 miller_loop(std::span<const PreparedPair> terms);

}  // namespace zkpipe::pairing
