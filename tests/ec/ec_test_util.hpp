// Shared helpers for the curve tests: sampling points inside and outside the
// subgroups, the slow reference subgroup check, and hex <-> bytes.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "ec/affine.hpp"
#include "ec/generators.hpp"
#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/fr.hpp"

namespace zkpipe::ec::test {

using Rng = std::mt19937_64;

// [r]P == O by plain double-and-add: the definition of subgroup membership.
template <class Curve>
bool in_subgroup_by_order(const Affine<Curve>& p) {
  return mul_double_and_add(Jacobian<Curve>::from_affine(p), kGroupOrder).is_identity();
}

// Try-and-increment on x, no cofactor clearing: a point of the whole curve group,
// which is outside the subgroup except with negligible probability.
template <class Curve>
Affine<Curve> random_curve_point(Rng& rng) {
  using Field = typename Curve::Field;
  Field x = Field::random(rng);
  for (;;) {
    if (auto y = (x.square() * x + Curve::b()).sqrt()) {
      return Affine<Curve>::from_xy(x, (rng() & 1) ? *y : -*y);
    }
    x += Field::one();
  }
}

template <class Curve>
const Affine<Curve>& generator();

template <>
inline const Affine<G1Curve>& generator<G1Curve>() {
  return kG1Generator;
}

template <>
inline const Affine<G2Curve>& generator<G2Curve>() {
  return kG2Generator;
}

// [k]G for a random k, by the reference multiplication.
template <class Curve>
Jacobian<Curve> random_subgroup_point(Rng& rng) {
  ff::Fr k = ff::Fr::random(rng);
  return mul_double_and_add(Jacobian<Curve>::from_affine(generator<Curve>()), k.to_canonical());
}

inline std::vector<std::uint8_t> from_hex(std::string_view hex) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  }
  return out;
}

template <class Bytes>
std::string to_hex(const Bytes& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (std::uint8_t b : bytes) {
    s += kDigits[b >> 4];
    s += kDigits[b & 15];
  }
  return s;
}

}  // namespace zkpipe::ec::test
