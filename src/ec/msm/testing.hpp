// Inputs for MSM tests and benchmarks: many distinct subgroup points made cheaply
// (a random walk of additions, not one scalar multiplication per point), and scalar
// vectors shaped like random data or like a Filecoin witness.
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

#include "ec/affine.hpp"
#include "ec/batch_normalize.hpp"
#include "ec/curves.hpp"
#include "ec/generators.hpp"
#include "ec/jacobian.hpp"
#include "ff/fr.hpp"

namespace zkpipe::ec::msm_testing {

template <class Curve>
Affine<Curve> generator() {
  if constexpr (std::is_same_v<Curve, G1Curve>) {
    return kG1Generator;
  } else {
    return kG2Generator;
  }
}

// k·p by double-and-add over the bits of k.
template <class Curve, std::size_t N>
Jacobian<Curve> multiply(const Affine<Curve>& p, const ff::Limbs<N>& k) {
  Jacobian<Curve> acc = Jacobian<Curve>::identity();
  for (std::size_t i = ff::limbs_bit_length(k); i-- > 0;) {
    acc = acc.dbl();
    if (ff::limbs_bit(k, i)) acc += p;
  }
  return acc;
}

// n points of the prime-order subgroup, deterministic in the seed. Blocks of points
// are random walks P_{i+1} = P_i + S_{t_i} over a few random multiples S of the
// generator, each block starting from its own random multiple, then normalized.
template <class Curve>
std::vector<Affine<Curve>> random_points(std::size_t n, std::uint64_t seed) {
  constexpr std::size_t kSteps = 64;
  constexpr std::size_t kBlock = 4096;
  const Affine<Curve> g = generator<Curve>();

  std::mt19937_64 rng(seed);
  std::vector<Jacobian<Curve>> steps_jacobian(kSteps);
  for (auto& step : steps_jacobian) step = multiply(g, ff::Limbs<1>{rng()});
  const std::vector<Affine<Curve>> steps = batch_normalize(steps_jacobian);

  std::vector<Affine<Curve>> points(n);
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    std::mt19937_64 block_rng(seed ^ (0x9e3779b97f4a7c15 * (b + 1)));
    const std::size_t begin = b * kBlock;
    const std::size_t size = std::min(n, begin + kBlock) - begin;
    std::vector<Jacobian<Curve>> walk(size);
    Jacobian<Curve> p = multiply(g, ff::Limbs<1>{block_rng()});
    for (auto& point : walk) {
      point = p;
      p += steps[block_rng() % kSteps];
    }
    batch_normalize(std::span<const Jacobian<Curve>>(walk),
                    std::span<Affine<Curve>>(points).subspan(begin, size));
  });
  return points;
}

inline std::vector<ff::Fr> random_scalars(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ff::Fr> scalars(n);
  for (auto& s : scalars) s = ff::Fr::random(rng);
  return scalars;
}

// Like a Filecoin witness: zero_percent zeros, one_percent ones, the rest random.
inline std::vector<ff::Fr> witness_like_scalars(std::size_t n, unsigned zero_percent,
                                                unsigned one_percent, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ff::Fr> scalars(n);
  for (auto& s : scalars) {
    const auto roll = static_cast<unsigned>(rng() % 100);
    if (roll < zero_percent) {
      s = ff::Fr::zero();
    } else if (roll < zero_percent + one_percent) {
      s = ff::Fr::one();
    } else {
      s = ff::Fr::random(rng);
    }
  }
  return scalars;
}

// The MSM special cases mixed into random inputs: points at infinity (every 7th),
// one point repeated (i ≡ 1 mod 5) and negated (i ≡ 2 mod 5), for bucket doublings
// and cancellations; the largest scalars −1 − i (every 11th), zeros and ones.
template <class Curve>
void mix_in_edge_cases(std::vector<Affine<Curve>>& points, std::vector<ff::Fr>& scalars) {
  const std::size_t n = std::min(points.size(), scalars.size());
  for (std::size_t i = 0; i < n; i += 7) points[i] = Affine<Curve>::identity();
  for (std::size_t i = 1; i < n; i += 5) points[i] = points[1];
  for (std::size_t i = 2; i < n; i += 5) points[i] = -points[1];
  for (std::size_t i = 3; i < n; i += 11) scalars[i] = -ff::Fr::one() - ff::Fr::from_u64(i);
  for (std::size_t i = 4; i < n; i += 6) scalars[i] = ff::Fr::zero();
  for (std::size_t i = 5; i < n; i += 9) scalars[i] = ff::Fr::one();
}

}  // namespace zkpipe::ec::msm_testing
