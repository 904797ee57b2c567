// Many projective points (Jacobian or XYZZ) to affine with one field inversion per
// chunk (Montgomery's trick). Identity points map to the affine identity. Large
// inputs are split into chunks normalized in parallel with oneTBB: each chunk pays
// one inversion, which is negligible next to its three multiplications per point.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ec/xyzz.hpp"

namespace zkpipe::ec {

namespace detail {

// The one field element per point whose inverse gives the affine coordinates.
template <class Curve>
constexpr typename Curve::Field normalization_denominator(const Jacobian<Curve>& p) {
  return p.Z;
}

template <class Curve>
constexpr typename Curve::Field normalization_denominator(const Xyzz<Curve>& p) {
  return p.ZZZ;
}

// (X/Z^2, Y/Z^3) from 1/Z.
template <class Curve>
constexpr Affine<Curve> affine_from_inverse(const Jacobian<Curve>& p,
                                            const typename Curve::Field& z_inv) {
  auto z_inv2 = z_inv.square();
  return Affine<Curve>::from_xy(p.X * z_inv2, p.Y * z_inv2 * z_inv);
}

// (X/ZZ, Y/ZZZ) from 1/ZZZ: since ZZ^3 = ZZZ^2, 1/Z = ZZ/ZZZ and 1/ZZ = (1/Z)^2.
template <class Curve>
constexpr Affine<Curve> affine_from_inverse(const Xyzz<Curve>& p,
                                            const typename Curve::Field& zzz_inv) {
  auto z_inv = p.ZZ * zzz_inv;
  return Affine<Curve>::from_xy(p.X * z_inv.square(), p.Y * zzz_inv);
}

// Serial Montgomery trick. The running prefix products are kept in out[i].x, so
// no scratch memory is needed.
template <class Point, class AffinePoint>
void batch_normalize_serial(std::span<const Point> in, std::span<AffinePoint> out) {
  using Field = typename Point::Field;
  Field acc = Field::one();
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i].x = acc;
    if (!in[i].is_identity()) acc *= normalization_denominator(in[i]);
  }
  Field inv = acc.inverse();
  for (std::size_t i = in.size(); i-- > 0;) {
    if (in[i].is_identity()) {
      out[i] = AffinePoint::identity();
      continue;
    }
    Field denominator = normalization_denominator(in[i]);
    Field point_inv = inv * out[i].x;
    inv *= denominator;
    out[i] = affine_from_inverse(in[i], point_inv);
  }
}

}  // namespace detail

// Points per parallel task: large enough that the chunk's one inversion (~600
// multiplications) costs little next to its 3 multiplications per point.
inline constexpr std::size_t kBatchNormalizeChunk = 4096;

// out[i] = in[i] as an affine point; out.size() must equal in.size().
template <class Point>
  requires requires(const Point& p) { detail::normalization_denominator(p); }
void batch_normalize(std::span<const Point> in, std::span<typename Point::AffinePoint> out) {
  if (in.size() != out.size()) {
    throw std::invalid_argument("batch_normalize: input and output sizes differ");
  }
  if (in.size() <= kBatchNormalizeChunk) {
    detail::batch_normalize_serial(in, out);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, in.size(), kBatchNormalizeChunk),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      std::size_t n = range.end() - range.begin();
                      detail::batch_normalize_serial(in.subspan(range.begin(), n),
                                                     out.subspan(range.begin(), n));
                    });
}

template <class Point>
  requires requires(const Point& p) { detail::normalization_denominator(p); }
std::vector<typename Point::AffinePoint> batch_normalize(std::span<const Point> in) {
  std::vector<typename Point::AffinePoint> out(in.size());
  batch_normalize(in, std::span<typename Point::AffinePoint>(out));
  return out;
}

// Vector conveniences (a span parameter cannot be deduced from a vector argument).
template <class Point>
  requires requires(const Point& p) { detail::normalization_denominator(p); }
std::vector<typename Point::AffinePoint> batch_normalize(const std::vector<Point>& in) {
  return batch_normalize(std::span<const Point>(in));
}

}  // namespace zkpipe::ec
