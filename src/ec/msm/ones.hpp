// The terms whose scalar is 1: their bases are simply added up, in parallel, with
// mixed XYZZ additions (cheaper than any bucket pass, which would add each base
// once per window).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "ec/affine.hpp"
#include "ec/xyzz.hpp"

namespace zkpipe::ec::detail {

// sum of table[indices[i]·stride].
template <class Curve>
Xyzz<Curve> sum_indexed_bases(std::span<const Affine<Curve>> table, std::size_t stride,
                              std::span<const std::uint32_t> indices) {
  constexpr std::size_t kGrain = std::size_t{1} << 13;
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, indices.size(), kGrain), Xyzz<Curve>::identity(),
      [&](const tbb::blocked_range<std::size_t>& range, Xyzz<Curve> acc) {
        for (std::size_t i = range.begin(); i < range.end(); ++i)
          acc += table[std::size_t{indices[i]} * stride];
        return acc;
      },
      [](const Xyzz<Curve>& a, const Xyzz<Curve>& b) { return a + b; });
}

}  // namespace zkpipe::ec::detail
