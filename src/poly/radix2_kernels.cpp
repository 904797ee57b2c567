#include "poly/radix2_kernels.hpp"

namespace zkpipe::poly {

using ff::Fr;

namespace {

// (x, y) -> (x + y, (x - y)·w)
inline void dif_butterfly(Fr& x, Fr& y, const Fr& w) {
  Fr difference = x - y;
  x += y;
  y = difference * w;
}

// (x, y) -> (x + y·w, x - y·w)
inline void dit_butterfly(Fr& x, Fr& y, const Fr& w) {
  Fr t = y * w;
  y = x - t;
  x += t;
}

// The j = 0 butterflies have w = 1: skipping their multiplication saves about
// one multiplication per element over a whole transform.
inline void unit_butterfly(Fr& x, Fr& y) {
  Fr difference = x - y;
  x += y;
  y = difference;
}

// One stage over every group of 2h rows: rows (s + j, s + j + h), j < h.
template <bool kDif>
void run_stage(Fr* block, std::size_t rows, std::size_t half, std::size_t width,
               const Fr* stage_twiddles) {
  const std::size_t gap = half * width;
  for (std::size_t start = 0; start < rows; start += 2 * half) {
    Fr* top = block + start * width;
    for (std::size_t c = 0; c < width; ++c) unit_butterfly(top[c], top[gap + c]);
    for (std::size_t j = 1; j < half; ++j) {
      const Fr& w = stage_twiddles[j];
      Fr* x = top + j * width;
      for (std::size_t c = 0; c < width; ++c) {
        if constexpr (kDif) {
          dif_butterfly(x[c], x[gap + c], w);
        } else {
          dit_butterfly(x[c], x[gap + c], w);
        }
      }
    }
  }
}

}  // namespace

std::vector<Fr> stage_twiddles(const Fr& root, unsigned log_m) {
  const std::size_t m = std::size_t{1} << log_m;
  std::vector<Fr> table(m);
  if (m < 2) return table;
  // Powers of the stage root root^(m/2h) are a stride of the powers of root.
  std::vector<Fr> powers(m / 2);
  powers[0] = Fr::one();
  for (std::size_t i = 1; i < m / 2; ++i) powers[i] = powers[i - 1] * root;
  for (std::size_t half = 1; half < m; half *= 2) {
    const std::size_t stride = m / (2 * half);
    for (std::size_t j = 0; j < half; ++j) table[half + j] = powers[j * stride];
  }
  return table;
}

void dif_block(Fr* block, unsigned log_m, std::size_t width, const Fr* twiddles) {
  const std::size_t rows = std::size_t{1} << log_m;
  for (std::size_t half = rows / 2; half >= 1; half /= 2) {
    run_stage<true>(block, rows, half, width, twiddles + half);
  }
}

void dit_block(Fr* block, unsigned log_m, std::size_t width, const Fr* twiddles) {
  const std::size_t rows = std::size_t{1} << log_m;
  for (std::size_t half = 1; half < rows; half *= 2) {
    run_stage<false>(block, rows, half, width, twiddles + half);
  }
}

}  // namespace zkpipe::poly
