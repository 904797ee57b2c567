// Fixed-base scalar multiplication: one base, many scalars (Groth16 setup computes
// millions of multiples of the same generator). A table of d·2^(w·j)·P for every
// w-bit window j and digit d turns each product into one addition per window,
// with no doublings. w = 8 (the default) is the device's layout; the host's setup of
// a large key takes w = 16: half the additions for a table of 2^20 points (about
// 100 MB in G1, 200 MB in G2) instead of 2^13. Variable time: setup's scalars are
// derived from a seed that is documented as test-only toxic waste.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "ec/batch_add.hpp"
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
    const ff::Fr::Repr k = scalar.to_canonical();
    Point acc = Point::identity();
    for (std::size_t j = 0; j < kWindows; ++j) {
      const std::size_t digit = window_digit(k, j);
      if (digit != 0) acc += table_[j * kDigits + digit];
    }
    return acc;
  }

  // out[i] = scalars[i]·P in affine form, in parallel. The products are summed in
  // affine form a window at a time, a chunk's additions for one window sharing one
  // field inversion (detail::BatchAdder; use_lanes as there). Its precondition always
  // holds: with P of prime order r, the sum after the windows below j is a·P with
  // 0 < a = k mod 2^(w·j) < 2^(w·j), and the next term is b·P with b = d·2^(w·j) for
  // the window's digit d > 0; a < b and 0 < a + b ≤ k < r, so a ≢ ±b (mod r) and the
  // two never share x.
  void mul_many(std::span<const ff::Fr> scalars, std::span<AffinePoint> out, bool use_lanes = true) const {
    constexpr std::size_t kChunk = 1024;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, scalars.size(), kChunk),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        std::vector<ff::Fr::Repr> digits(range.size());
                        for (std::size_t i = 0; i < range.size(); ++i) {
                          digits[i] = scalars[range.begin() + i].to_canonical();
                        }
                        std::span<AffinePoint> sums = out.subspan(range.begin(), range.size());
                        std::ranges::fill(sums, AffinePoint::identity());
                        std::vector<detail::PendingAdd<Curve>> batch;
                        batch.reserve(range.size());
                        detail::BatchAdder<Curve> adder(use_lanes);
                        for (std::size_t j = 0; j < kWindows; ++j) {
                          batch.clear();
                          for (std::size_t i = 0; i < range.size(); ++i) {
                            const std::size_t digit = window_digit(digits[i], j);
                            if (digit == 0) continue;
                            const AffinePoint& term = table_[j * kDigits + digit];
                            if (sums[i].infinity) {
                              sums[i] = term;
                            } else {
                              batch.push_back({static_cast<std::uint32_t>(i), term});
                            }
                          }
                          adder.add(sums, batch);
                        }
                      });
  }

  std::vector<AffinePoint> mul_many(std::span<const ff::Fr> scalars) const {
    std::vector<AffinePoint> out(scalars.size());
    mul_many(scalars, std::span<AffinePoint>(out));
    return out;
  }

 private:
  static std::size_t window_digit(const ff::Fr::Repr& k, std::size_t window) {
    const std::size_t bit = window * kWindowBits;
    return (k[bit / 64] >> (bit % 64)) & (kDigits - 1);
  }

  std::vector<AffinePoint> table_;
};

}  // namespace zkpipe::ec
