// Batch-affine bucket additions for G1 and G2, eight lanes at a time with AVX-512
// IFMA (ff/fp_x8.hpp, ff/fp2_x8.hpp): the same Montgomery-trick batch as
// BatchAffineBuckets::flush, with every field multiplication done for eight additions
// at once. Lane j of group g is
// addition 8g + j; each lane keeps its own running product, so the eight chains of
// the batch inversion run side by side and share one field inversion.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/curves.hpp"
#include "ff/fp2_x8.hpp"
#include "ff/fp_x8.hpp"

namespace zkpipe::ec::detail {

template <class Curve>
struct PendingAdd {
  std::uint32_t bucket;
  Affine<Curve> point;
};

#ifdef ZKPIPE_FF_X86_64

template <class Field>
struct LanesOf;
template <>
struct LanesOf<ff::Fp> {
  using type = ff::FpX8Lanes;
};
template <>
struct LanesOf<ff::Fp2> {
  using type = ff::Fp2X8Lanes;
};

// Staging reused from batch to batch: per group of eight, the bucket coordinates
// (overwritten by the sums), the point coordinates and the running products.
template <class Curve>
struct BatchAddScratchX8 {
  using Lanes = typename LanesOf<typename Curve::Field>::type;
  std::vector<Lanes> x1, y1, x2, y2, prefix;

  void resize(std::size_t groups) {
    for (auto* v : {&x1, &y1, &x2, &y2, &prefix}) {
      if (v->size() < groups) v->resize(groups);
    }
  }
};

// buckets[e.bucket] += e.point for every e in the batch. The batch's buckets must be
// distinct and finite, and no point may share its bucket's x (no doubling, no
// cancelling). Call only when ff::kCpuHasAvx512Ifma.
template <class Curve>
ZKPIPE_TARGET_AVX512_IFMA void batch_add_x8(std::span<Affine<Curve>> buckets, std::span<const PendingAdd<Curve>> batch,
                  BatchAddScratchX8<Curve>& scratch);

extern template void batch_add_x8<G1Curve>(std::span<Affine<G1Curve>>, std::span<const PendingAdd<G1Curve>>,
                                           BatchAddScratchX8<G1Curve>&);
extern template void batch_add_x8<G2Curve>(std::span<Affine<G2Curve>>, std::span<const PendingAdd<G2Curve>>,
                                           BatchAddScratchX8<G2Curve>&);

#endif  // ZKPIPE_FF_X86_64

}  // namespace zkpipe::ec::detail
