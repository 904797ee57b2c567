// The blocked ("four-step") radix-2 NTT that keeps large transforms cache-friendly.
//
// A transform of N = R·C points views the array as R rows of C contiguous
// elements and does, for natural input and bit-reversed output (DIF):
//   1. a size-R transform down every column (tiles of a few columns are copied
//      into a per-thread scratch block that fits in L2),
//   2. a multiplication of element (row p, column n) by ω_N^(n·rev_R(p)),
//   3. a size-C transform along every row (one row fits in L2).
// The result is exactly the size-N DIF output in bit-reversed order, because
// rev_N(k1 + R·k2) = rev_R(k1)·C + rev_C(k2). The DIT variant (bit-reversed in,
// natural out) is the transpose of the same steps, in reverse order.
// Each element crosses main memory twice, whatever N, instead of log2 N times.
//
// Every scaling a caller needs (1/N, coset powers g^i or g^-i) folds into the
// passes — into the step-2 multipliers and one small table at each end — so
// scaling never costs an extra pass over memory.
#pragma once

#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace zkpipe::poly {

struct FourStepShape {
  unsigned log_rows = 0;  // R = 2^log_rows (1 for transforms that fit in cache)
  unsigned log_cols = 0;  // C = 2^log_cols

  static FourStepShape for_log_size(unsigned log_size);
};

// The twiddles of one direction for one shape; root is ω_N or ω_N^-1.
struct FourStepTwiddles {
  FourStepTwiddles(const ff::Fr& root, FourStepShape shape);

  std::vector<ff::Fr> column_stages;   // stage table of the size-R transform (root^C)
  std::vector<ff::Fr> row_stages;      // stage table of the size-C transform (root^R)
  std::vector<ff::Fr> diagonal_steps;  // root^k for k < R
};

// Multipliers folded into the passes. Element (row p, column n) between the
// column and the row steps is multiplied by
//     overall · row_factor^k · (root^k · column_factor)^n,   k = rev_R(p),
// the first pass multiplies its input by first_pass[i] and the last pass its
// output by last_pass[i], i being the index along the dimension that pass
// transforms (empty tables multiply by nothing).
struct FoldedScaling {
  ff::Fr overall = ff::Fr::one();
  ff::Fr row_factor = ff::Fr::one();
  ff::Fr column_factor = ff::Fr::one();
  std::vector<ff::Fr> first_pass;
  std::vector<ff::Fr> last_pass;
};

// Natural order in, bit-reversed out. |a| = R·C.
void dif_four_step(std::span<ff::Fr> a, FourStepShape shape, const FourStepTwiddles& twiddles,
                   const FoldedScaling& scaling);

// Bit-reversed order in, natural out. |a| = R·C.
void dit_four_step(std::span<ff::Fr> a, FourStepShape shape, const FourStepTwiddles& twiddles,
                   const FoldedScaling& scaling);

}  // namespace zkpipe::poly
