// The optimal ate pairing e: G1 × G2 -> GT ⊂ Fp12* of BLS12-381.
#pragma once

#include <span>
#include <utility>

#include "ff/fp12.hpp"
#include "pairing/final_exponentiation.hpp"
#include "pairing/g2_prepared.hpp"
#include "pairing/miller_loop.hpp"

namespace zkpipe::pairing {

// e(P, Q); 1 when either point is the identity.
ff::Fp12 pairing(const G1Affine& p, const G2Affine& q);

// Π e(P_i, Q_i) with one Miller loop and one final exponentiation, the shape of a
// Groth16 verification.
ff::Fp12 multi_pairing(std::span<const std::pair<G1Affine, G2Affine>> pairs);

// The same product over already prepared G2 points.
ff::Fp12 multi_pairing(std::span<const PreparedPair> terms);

}  // namespace zkpipe::pairing
