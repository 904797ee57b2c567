// Fixed-base scalar multiplication: one base, many scalars (Groth16 setup computes
// millions of multiples of the same generator). A table of d·2^(w·j)·P for every
// w-bit window j and digit d turns each product into one mixed addition per window,
// with no doublings. w = 8 (the default) is the device's layout; the host's setup of
// a large key takes w = 16: half the additions for a table of 2^20 points (about
// 100 MB in G1, 200 MB in G2) instead of 2^13. Variable time: setup's scalars are
// derived from a seed that is documented as test-only toxic waste.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "ec/batch_normalize.hpp"
#include "ec/jacobian.hpp"
#include "ff/fr.hpp"

namespace zkpipe::ec {

template <class Curve, unsigned WindowBits = 8>
class FixedBaseTable {
 public:
  using AffinePoint = Affine<Curve>;
  using Point = Jacobian<Curve>;

  static constexpr unsigned kWindowBits = WindowBits;
  static constexpr std::size_t kDigits = std::size_t{1} << kWindowBits;
  static constexpr std::size_t kWindows = (ff::Fr::kBits + kWindowBits - 1) / kWindowBits;
  static_assert(64 % kWindowBits == 0, "a window must not straddle two limbs");

  // Each window's row is made and normalized on its own, so that building the table
  // holds one row of projective points per thread besides it.
  explicit FixedBaseTable(const AffinePoint& base) : table_(kWindows * kDigits) {
    tbb::parallel_for(std::size_t{0}, kWindows, [&](std::size_t j) {
      Point window_base = Point::from_affine(base);
      for (std::size_t i = 0; i < j * kWindowBits; ++i) window_base = window_base.dbl();
      std::vector<Point> row(kDigits);
      Point acc = Point::identity();
      for (std::size_t d = 0; d < kDigits; ++d) {
        row[d] = acc;
        acc += window_base;
      }
      batch_normalize(std::span<const Point>(row), std::span<AffinePoint>(table_).subspan(j * kDigits, kDigits));
    });
  }

  // Row j holds d·2^(w·j)·P for d < 2^w (d = 0: the identity): what a device copy uploads.
  std::span<const AffinePoint> table() const { return table_; }

  // scalar·P, as a projective point.
  Point mul(const ff::Fr& scalar) const {
    auto k = scalar.to_canonical();
    Point acc = Point::identity();
    for (std::size_t j = 0; j < kWindows; ++j) {
      std::size_t bit = j * kWindowBits;
      std::size_t digit = (k[bit / 64] >> (bit % 64)) & (kDigits - 1);
      if (digit != 0) acc += table_[j * kDigits + digit];
    }
    return acc;
  }

  // out[i] = scalars[i]·P in affine form, in parallel.
  void mul_many(std::span<const ff::Fr> scalars, std::span<AffinePoint> out) const {
    constexpr std::size_t kChunk = 1024;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, scalars.size(), kChunk),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        std::vector<Point> products(range.size());
                        for (std::size_t i = range.begin(); i < range.end(); ++i) {
                          products[i - range.begin()] = mul(scalars[i]);
                        }
                        batch_normalize(std::span<const Point>(products),
                                        out.subspan(range.begin(), range.size()));
                      });
  }

  std::vector<AffinePoint> mul_many(std::span<const ff::Fr> scalars) const {
    std::vector<AffinePoint> out(scalars.size());
    mul_many(scalars, std::span<AffinePoint>(out));
    return out;
  }

 private:
  std::vector<AffinePoint> table_;
};

}  // namespace zkpipe::ec
