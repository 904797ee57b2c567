// Sorting an MSM's terms by scalar, the step that makes Filecoin witnesses cheap:
// their scalars are mostly 0 and 1. Zero scalars (and identity bases) contribute
// nothing and are dropped; bases with scalar 1 are summed directly; only the rest go
// through the bucket method. Each scalar leaves Montgomery form exactly once, here.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/msm/digits.hpp"
#include "ff/fr.hpp"
#include "ff/huge_pages.hpp"

namespace zkpipe::ec::detail {

struct SplitScalars {
  std::vector<std::uint32_t> one_indices;
  std::vector<std::uint32_t> other_indices;
  // Canonical values of the other scalars (parallel to other_indices), 5 limbs so
  // that they can be recoded in place once the window size is known.
  std::vector<RecodedScalar> other_values;
};

namespace split_scalars_detail {

inline constexpr std::size_t kBlock = std::size_t{1} << 14;

inline void classify_block(std::span<const ff::Fr> scalars, std::size_t begin, std::size_t end,
                           const auto& skip_base, SplitScalars& out) {
  for (std::size_t i = begin; i < end; ++i) {
    const ff::Limbs<4> k = scalars[i].to_canonical();
    if (ff::limbs_is_zero(k) || skip_base(i)) continue;
    if (k == ff::Limbs<4>{1, 0, 0, 0}) {
      out.one_indices.push_back(static_cast<std::uint32_t>(i));
      continue;
    }
    out.other_indices.push_back(static_cast<std::uint32_t>(i));
    out.other_values.push_back({k[0], k[1], k[2], k[3], 0});
  }
}

// Moves the per-block lists, in block order, into one list.
template <class T>
std::vector<T> concatenate(std::vector<SplitScalars>& blocks, std::vector<T> SplitScalars::*list) {
  std::vector<std::size_t> offsets(blocks.size() + 1, 0);
  for (std::size_t b = 0; b < blocks.size(); ++b)
    offsets[b + 1] = offsets[b] + (blocks[b].*list).size();
  std::vector<T> out;
  ff::resize_on_huge_pages(out, offsets.back());
  tbb::parallel_for(std::size_t{0}, blocks.size(), [&](std::size_t b) {
    std::vector<T>& part = blocks[b].*list;
    std::copy(part.begin(), part.end(), out.begin() + static_cast<std::ptrdiff_t>(offsets[b]));
    std::vector<T>().swap(part);
  });
  return out;
}

}  // namespace split_scalars_detail

// skip_base(i) says whether base i is the identity. Indices keep the input order.
template <class SkipBase>
SplitScalars split_scalars(std::span<const ff::Fr> scalars, const SkipBase& skip_base) {
  using namespace split_scalars_detail;
  const std::size_t blocks = (scalars.size() + kBlock - 1) / kBlock;
  std::vector<SplitScalars> parts(blocks);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const std::size_t begin = b * kBlock;
    const std::size_t end = std::min(scalars.size(), begin + kBlock);
    classify_block(scalars, begin, end, skip_base, parts[b]);
  });
  SplitScalars all;
  all.one_indices = concatenate(parts, &SplitScalars::one_indices);
  all.other_indices = concatenate(parts, &SplitScalars::other_indices);
  all.other_values = concatenate(parts, &SplitScalars::other_values);
  return all;
}

// Recodes the other scalars' values in place for the chosen window layout.
inline void recode_all(std::span<RecodedScalar> values, const WindowLayout& layout) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, values.size(), 1 << 14),
                    [&](const tbb::blocked_range<std::size_t>& range) {
                      for (std::size_t i = range.begin(); i < range.end(); ++i)
                        layout.recode(values[i]);
                    });
}

}  // namespace zkpipe::ec::detail
