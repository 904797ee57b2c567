// The final exponentiation f -> f^((p^12 - 1)/r) that turns a Miller-loop value
// into an element of GT.
#pragma once

#include "ff/fp12.hpp"

namespace zkpipe::pairing {

// Computes f^(3·(p^12 - 1)/r), the same power as zcash's bls12_381 and blst (the
// factor 3, coprime to r, buys a cheaper hard part; the map stays a bilinear,
// non-degenerate pairing). f must be non-zero.
ff::Fp12 final_exponentiation(const ff::Fp12& f);

}  // namespace zkpipe::pairing
