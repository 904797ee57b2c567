// Batch-affine addition: sums[e.bucket] += e.point for a batch of terms, all of them
// sharing one field inversion (Montgomery's trick). With its share of the inversion
// an affine addition costs about 6 multiplications against 10 for a mixed XYZZ
// addition and 11 for a mixed Jacobian one. What the MSM's batch-affine buckets and
// the fixed-base products of setup are built on.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/batch_affine_x8.hpp"

namespace zkpipe::ec::detail {

template <class Curve>
class BatchAdder {
 public:
  using Field = typename Curve::Field;

  // With use_lanes, batches are computed eight additions at a time where the
  // processor has AVX-512 IFMA (batch_affine_x8.hpp).
  explicit BatchAdder(bool use_lanes) : use_lanes_(use_lanes && ff::kCpuHasAvx512Ifma) {}

  bool uses_lanes() const { return use_lanes_; }

  // sums[e.bucket] += e.point for every e in the batch. The batch's buckets must be
  // distinct and finite, and no point may share its bucket's x (no doubling, no
  // cancelling).
  void add(std::span<Affine<Curve>> sums, std::span<const PendingAdd<Curve>> batch) {
#ifdef ZKPIPE_FF_X86_64
    if (use_lanes_) {
      batch_add_x8<Curve>(sums, batch, scratch_);
      return;
    }
#endif
    if (prefix_.size() < batch.size()) prefix_.resize(batch.size());
    // prefix_[i] = d_0·…·d_i over the denominators d_i = x2 − x1.
    Field acc = Field::one();
    for (std::size_t i = 0; i < batch.size(); ++i) {
      acc *= batch[i].point.x - sums[batch[i].bucket].x;
      prefix_[i] = acc;
    }
    Field inv = acc.inverse();
    for (std::size_t i = batch.size(); i-- > 0;) {
      const PendingAdd<Curve>& e = batch[i];
      Affine<Curve>& sum = sums[e.bucket];
      const Field d_inv = i > 0 ? inv * prefix_[i - 1] : inv;
      if (i > 0) inv *= e.point.x - sum.x;
      const Field lambda = (e.point.y - sum.y) * d_inv;
      const Field x3 = lambda.square() - sum.x - e.point.x;
      sum.y = lambda * (sum.x - x3) - sum.y;
      sum.x = x3;
    }
  }

 private:
  std::vector<Field> prefix_;
#ifdef ZKPIPE_FF_X86_64
  BatchAddScratchX8<Curve> scratch_;
#endif
  bool use_lanes_;
};

}  // namespace zkpipe::ec::detail
