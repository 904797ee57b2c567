#include "poly/four_step.hpp"

#include <algorithm>
#include <cstddef>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "poly/bit_reverse.hpp"
#include "poly/radix2_kernels.hpp"

namespace zkpipe::poly {

using ff::Fr;

namespace {

// A row of 2^14 elements (512 KiB), or a column tile of that many, fits in a
// 1–2 MiB L2 with room left for the twiddles.
constexpr unsigned kLogBlockElements = 14;
// Transforms this small run as one block on one thread.
constexpr unsigned kLogSingleBlock = 12;
// A tile row of at least 4 elements reads whole 64-byte cache lines.
constexpr std::size_t kMinTileWidth = 4;
// Enough column tiles to keep many threads busy at moderate sizes.
constexpr std::size_t kMinTiles = 16;

std::vector<Fr> powers(const Fr& start, const Fr& base, std::size_t count) {
  std::vector<Fr> out(count);
  Fr x = start;
  for (auto& p : out) {
    p = x;
    x *= base;
  }
  return out;
}

void scale(Fr* data, std::size_t count, const std::vector<Fr>& factors) {
  for (std::size_t i = 0; i < count; ++i) data[i] *= factors[i];
}

// With a single row the column pass is the identity and its per-row factor
// covers the whole array.
void scale_single_row(std::span<Fr> a, const std::vector<Fr>& row_factors) {
  if (row_factors.empty()) return;
  for (auto& x : a) x *= row_factors[0];
}

// Applies step 2 to one row: element n times start·step^n.
void scale_geometric(Fr* row, std::size_t count, const Fr& start, const Fr& step) {
  if (start.is_one() && step.is_one()) return;
  Fr factor = start;
  for (std::size_t i = 0; i < count; ++i) {
    row[i] *= factor;
    factor *= step;
  }
}

// The step-2 multipliers of row p, as the (start, step) of a geometric series.
class DiagonalScaling {
 public:
  DiagonalScaling(FourStepShape shape, const FourStepTwiddles& twiddles,
                  const FoldedScaling& scaling)
      : log_rows_(shape.log_rows),
        steps_(twiddles.diagonal_steps),
        column_factor_(scaling.column_factor),
        starts_(powers(scaling.overall, scaling.row_factor, std::size_t{1} << shape.log_rows)) {}

  void apply(Fr* row, std::size_t row_index, std::size_t count) const {
    std::size_t k = reverse_bits(row_index, log_rows_);
    scale_geometric(row, count, starts_[k], steps_[k] * column_factor_);
  }

 private:
  unsigned log_rows_;
  const std::vector<Fr>& steps_;
  Fr column_factor_;
  std::vector<Fr> starts_;
};

enum class Kind { dif, dit };

void transform_block(Kind kind, Fr* block, unsigned log_m, std::size_t width, const Fr* twiddles) {
  if (kind == Kind::dif) {
    dif_block(block, log_m, width, twiddles);
  } else {
    dit_block(block, log_m, width, twiddles);
  }
}

// Step 1 (DIF) or 3 (DIT): size-R transforms down all columns, a tile of
// adjacent columns at a time through a contiguous scratch block (strided
// in-place access would map every row of a tile to the same cache sets).
void column_pass(Kind kind, std::span<Fr> a, FourStepShape shape, const std::vector<Fr>& twiddles,
                 const std::vector<Fr>& input_factors, const std::vector<Fr>& output_factors) {
  const std::size_t rows = std::size_t{1} << shape.log_rows;
  const std::size_t cols = std::size_t{1} << shape.log_cols;
  const std::size_t fitting_width = (std::size_t{1} << kLogBlockElements) / rows;
  const std::size_t width =
      std::min(cols, std::max(kMinTileWidth, std::min(fitting_width, cols / kMinTiles)));
  tbb::enumerable_thread_specific<std::vector<Fr>> scratch(rows * width);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cols / width), [&](const auto& range) {
    Fr* tile = scratch.local().data();
    for (std::size_t t = range.begin(); t != range.end(); ++t) {
      Fr* origin = a.data() + t * width;
      for (std::size_t r = 0; r < rows; ++r) {
        std::copy_n(origin + r * cols, width, tile + r * width);
        if (!input_factors.empty()) {
          for (std::size_t c = 0; c < width; ++c) tile[r * width + c] *= input_factors[r];
        }
      }
      transform_block(kind, tile, shape.log_rows, width, twiddles.data());
      for (std::size_t r = 0; r < rows; ++r) {
        if (!output_factors.empty()) {
          for (std::size_t c = 0; c < width; ++c) tile[r * width + c] *= output_factors[r];
        }
        std::copy_n(tile + r * width, width, origin + r * cols);
      }
    }
  });
}

// Step 3 (DIF) or 1 (DIT), with step 2 fused in: each row is scaled and
// transformed while it is in cache.
void row_pass(Kind kind, std::span<Fr> a, FourStepShape shape, const FourStepTwiddles& twiddles,
              const FoldedScaling& scaling) {
  const std::size_t rows = std::size_t{1} << shape.log_rows;
  const std::size_t cols = std::size_t{1} << shape.log_cols;
  const DiagonalScaling diagonal(shape, twiddles, scaling);
  auto transform_row = [&](std::size_t r) {
    Fr* row = a.data() + r * cols;
    if (kind == Kind::dif) {
      diagonal.apply(row, r, cols);
      dif_block(row, shape.log_cols, 1, twiddles.row_stages.data());
      if (!scaling.last_pass.empty()) scale(row, cols, scaling.last_pass);
    } else {
      if (!scaling.first_pass.empty()) scale(row, cols, scaling.first_pass);
      dit_block(row, shape.log_cols, 1, twiddles.row_stages.data());
      diagonal.apply(row, r, cols);
    }
  };
  if (rows == 1) {
    transform_row(0);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, rows), [&](const auto& range) {
    for (std::size_t r = range.begin(); r != range.end(); ++r) transform_row(r);
  });
}

}  // namespace

FourStepShape FourStepShape::for_log_size(unsigned log_size) {
  if (log_size <= kLogSingleBlock) return {0, log_size};
  // Rows as long as fit a block (but at least 4 of them, to share among
  // threads); beyond 2^28 the columns grow too and their tiles narrow.
  unsigned log_cols = std::max(log_size - log_size / 2, std::min(log_size - 2, kLogBlockElements));
  return {log_size - log_cols, log_cols};
}

FourStepTwiddles::FourStepTwiddles(const Fr& root, FourStepShape shape)
    : column_stages(stage_twiddles(root.pow(std::uint64_t{1} << shape.log_cols), shape.log_rows)),
      row_stages(stage_twiddles(root.pow(std::uint64_t{1} << shape.log_rows), shape.log_cols)),
      diagonal_steps(powers(Fr::one(), root, std::size_t{1} << shape.log_rows)) {}

void dif_four_step(std::span<Fr> a, FourStepShape shape, const FourStepTwiddles& twiddles,
                   const FoldedScaling& scaling) {
  if (shape.log_rows > 0) {
    column_pass(Kind::dif, a, shape, twiddles.column_stages, scaling.first_pass, {});
  } else {
    scale_single_row(a, scaling.first_pass);
  }
  row_pass(Kind::dif, a, shape, twiddles, scaling);
}

void dit_four_step(std::span<Fr> a, FourStepShape shape, const FourStepTwiddles& twiddles,
                   const FoldedScaling& scaling) {
  row_pass(Kind::dit, a, shape, twiddles, scaling);
  if (shape.log_rows > 0) {
    column_pass(Kind::dit, a, shape, twiddles.column_stages, {}, scaling.last_pass);
  } else {
    scale_single_row(a, scaling.last_pass);
  }
}

}  // namespace zkpipe::poly
