// Affine points (x, y) with an explicit flag for the point at infinity.
#pragma once

#include "ec/curves.hpp"

namespace zkpipe::ec {

template <class Curve>
struct Affine {
  using Field = typename Curve::Field;

  Field x{};
  Field y{};
  bool infinity = true;

  static constexpr Affine identity() { return {}; }
  static constexpr Affine from_xy(const Field& x, const Field& y) { return {x, y, false}; }

  constexpr bool is_identity() const { return infinity; }

  constexpr bool operator==(const Affine& o) const {
    if (infinity || o.infinity) return infinity == o.infinity;
    return x == o.x && y == o.y;
  }

  constexpr Affine operator-() const { return infinity ? *this : Affine{x, -y, false}; }

  // y^2 == x^3 + b (the identity counts as on the curve).
  constexpr bool is_on_curve() const {
    if (infinity) return true;
    return y.square() == x.square() * x + Curve::b();
  }
};

}  // namespace zkpipe::ec
