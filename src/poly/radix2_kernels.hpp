// In-cache radix-2 kernels: the building blocks the blocked NTT runs on blocks
// small enough to stay in a core's L2.
//
// A block is 2^log_m rows of `width` consecutive elements; the transform runs
// down the rows, independently for each of the `width` columns, so that one
// twiddle serves `width` butterflies. A contiguous vector is width = 1.
#pragma once

#include <cstddef>
#include <vector>

#include "ff/fr.hpp"

namespace zkpipe::poly {

// Twiddles of every stage of a size-2^log_m transform, laid out stage by stage
// so that each stage reads them contiguously: entry h + j is root_{2h}^j for the
// stage whose butterflies span 2h rows (h = 1, 2, 4, …, 2^(log_m-1); j < h).
// `root` is a primitive 2^log_m-th root of unity. Entry 0 is unused.
std::vector<ff::Fr> stage_twiddles(const ff::Fr& root, unsigned log_m);

// Decimation in frequency (Gentleman–Sande): natural order in, bit-reversed out.
void dif_block(ff::Fr* block, unsigned log_m, std::size_t width, const ff::Fr* twiddles);

// Decimation in time (Cooley–Tukey): bit-reversed order in, natural out.
void dit_block(ff::Fr* block, unsigned log_m, std::size_t width, const ff::Fr* twiddles);

}  // namespace zkpipe::poly
