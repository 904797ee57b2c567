// The MSM pipeline shared by plain and precomputed bases: drop the zero terms, add
// the scalar-1 bases directly, send the rest through the bucket method.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ec/msm/buckets.hpp"
#include "ec/msm/ones.hpp"
#include "ec/msm/scalars.hpp"
#include "ff/fr.hpp"

namespace zkpipe::ec::detail {

// Term indices are stored as 32-bit integers.
inline void check_msm_term_count(std::size_t terms) {
  if (terms > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("msm: more than 2^32 - 1 terms");
  }
}

inline void check_msm_sizes(std::size_t bases, std::size_t scalars) {
  if (bases != scalars) {
    throw std::invalid_argument("msm: " + std::to_string(bases) + " bases but " +
                                std::to_string(scalars) + " scalars");
  }
  check_msm_term_count(bases);
}

// table holds `copies` shifted copies per base (copy 0 is the base itself, copy j
// is 2^(j·q·c) times it); choose_layout(terms) gives the window layout for that many
// bucket-method terms and passes(layout) the q that goes with it.
template <class Curve, class ChooseLayout, class Passes>
Jacobian<Curve> msm_over_table(std::span<const Affine<Curve>> table, unsigned copies,
                               std::span<const ff::Fr> scalars, const ChooseLayout& choose_layout,
                               const Passes& passes, MsmBuckets kind, std::size_t threads) {
  SplitScalars terms =
      split_scalars(scalars, [&](std::size_t i) { return table[i * copies].is_identity(); });
  const Xyzz<Curve> ones = sum_indexed_bases<Curve>(table, copies, terms.one_indices);

  const WindowLayout layout = choose_layout(terms.other_indices.size());
  recode_all(terms.other_values, layout);
  const BucketInput<Curve> input{table, copies, passes(layout), terms.other_indices,
                                 terms.other_values};
  return bucket_msm(input, layout, kind, threads) + ones.to_jacobian();
}

}  // namespace zkpipe::ec::detail
