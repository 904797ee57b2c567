// A G2 point prepared for the Miller loop: the coefficients of every line the loop
// needs, computed once. A verifying key's fixed G2 points (β, γ, δ in Groth16) are
// prepared once and reused for every proof.
#pragma once

#include <vector>

#include "ec/affine.hpp"
#include "ff/fp2.hpp"

namespace zkpipe::pairing {

using G1Affine = ec::Affine<ec::G1Curve>;
using G2Affine = ec::Affine<ec::G2Curve>;

// A line c0 + c1·x_P·w^2 + c2·y_P·w^3 in the untwisted picture, up to an Fp2
// factor (which the final exponentiation removes). Evaluating it at a G1 point
// P = (x_P, y_P) costs four Fp multiplications.
struct LineCoefficients {
  ff::Fp2 c0;
  ff::Fp2 c1;
  ff::Fp2 c2;
};

class G2Prepared {
 public:
  // The identity prepares to no lines (its pairings are 1).
  explicit G2Prepared(const G2Affine& q);

  bool is_identity() const { return lines_.empty(); }

  // In Miller-loop order: one doubling line per bit below the top of |x|, each
  // followed by an addition line where that bit is set.
  const std::vector<LineCoefficients>& lines() const { return lines_; }

 private:
  std::vector<LineCoefficients> lines_;
};

}  // namespace zkpipe::pairing
