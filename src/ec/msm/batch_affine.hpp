// Batch-affine bucket accumulation: buckets kept as affine points and additions
// done in batches that share one field inversion (Montgomery's trick). An affine
// addition with its share of the batch inversion costs about 6 multiplications
// (3 for the batch inverse, λ, λ², λ·(x1 − x3)) against 10 for a mixed XYZZ addition,
// and an affine bucket is half the size of an XYZZ one.
//
// A batch may touch each bucket only once (the additions are computed together), so
// a term whose bucket is already in the batch waits for the next batch. When a
// batch's worth of terms already waits, a batch at least half full is computed early;
// otherwise (many equal digits) the term goes to a second, XYZZ bucket array, which
// keeps the cost at the XYZZ level rather than degrading to one inversion per
// addition. A term equal to its bucket (a doubling,
// rare) goes to the XYZZ array too, so a batch only ever holds
// additions of distinct x, the form the eight-lane path (batch_affine_x8.hpp)
// computes whenever the processor has AVX-512 IFMA.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/batch_affine_x8.hpp"
#include "ec/xyzz.hpp"

namespace zkpipe::ec::detail {

template <class Curve>
class BatchAffineBuckets {
 public:
  using Field = typename Curve::Field;

  // Batches are capped so that a batch rarely hits the same bucket twice. With
  // use_lanes, batches are computed eight additions at a time where the processor
  // has AVX-512 IFMA.
  BatchAffineBuckets(std::size_t buckets, std::size_t batch, bool use_lanes)
      : affine_(buckets), overflow_(buckets), in_batch_(buckets, 0),
        use_lanes_(use_lanes && ff::kCpuHasAvx512Ifma) {
    batch_.reserve(batch);
    waiting_.reserve(batch);
    retry_.reserve(batch);
    prefix_.resize(batch);
    capacity_ = batch;
  }

  void add(std::size_t bucket, const Affine<Curve>& p) {
    if (!place(bucket, p)) {
      // Too many terms wait: compute a batch that is at least half full now rather
      // than fall back to XYZZ (a sparse window's few buckets fill up quickly).
      if (batch_.size() * 2 < capacity_) {
        overflow_[bucket] += p;
      } else {
        run_batch();
        if (!place(bucket, p)) overflow_[bucket] += p;
      }
    }
    while (batch_.size() >= capacity_) run_batch();
  }

  // Completes the pending additions; call before reading the buckets.
  void flush() {
    while (!batch_.empty()) run_batch();
  }

  // sum_b (b + 1)·bucket_b: folded first (fold_reduce) when there are many buckets.
  Xyzz<Curve> reduce() {
    flush();
    return affine_.size() >= kFoldMinBuckets ? fold_reduce() : running_sum_reduce();
  }

 private:
  // Below this many buckets folding saves too little to pay for its small batches.
  static constexpr std::size_t kFoldMinBuckets = 256;

  using Pending = PendingAdd<Curve>;

  // Adds p to its bucket, to the batch or to the waiting terms; false when p's bucket
  // is in the batch and a batch's worth of terms already waits.
  bool place(std::size_t bucket, const Affine<Curve>& p) {
    Affine<Curve>& b = affine_[bucket];
    if (b.infinity) {
      b = p;
      return true;
    }
    if (in_batch_[bucket]) {
      if (waiting_.size() >= capacity_) return false;
      waiting_.push_back({static_cast<std::uint32_t>(bucket), p});
      return true;
    }
    if (b.x == p.x) {
      if (b.y == p.y) {
        overflow_[bucket] += p;
      } else {
        b = Affine<Curve>::identity();  // p = −b
      }
      return true;
    }
    in_batch_[bucket] = 1;
    batch_.push_back({static_cast<std::uint32_t>(bucket), p});
    return true;
  }

  // Computes the batch, then places the waiting terms again (into the next batch,
  // which they at most fill).
  void run_batch() {
    compute_batch();
    retry_.swap(waiting_);
    for (const Pending& e : retry_) {
      if (!place(e.bucket, e.point)) overflow_[e.bucket] += e.point;
    }
    retry_.clear();
  }

  void compute_batch() {
#ifdef ZKPIPE_FF_X86_64
    if (use_lanes_) {
      batch_add_x8<Curve>(affine_, batch_, scratch_);
      for (const Pending& e : batch_) in_batch_[e.bucket] = 0;
      batch_.clear();
      return;
    }
#endif
    // prefix_[i] = d_0·…·d_i over the denominators d_i.
    Field acc = Field::one();
    for (std::size_t i = 0; i < batch_.size(); ++i) {
      acc *= denominator(batch_[i]);
      prefix_[i] = acc;
    }
    Field inv = acc.inverse();
    for (std::size_t i = batch_.size(); i-- > 0;) {
      const Pending& e = batch_[i];
      const Field d_inv = i > 0 ? inv * prefix_[i - 1] : inv;
      if (i > 0) inv *= denominator(e);
      Affine<Curve>& b = affine_[e.bucket];
      const Field lambda = numerator(e) * d_inv;
      const Field x3 = lambda.square() - b.x - e.point.x;
      b.y = lambda * (b.x - x3) - b.y;
      b.x = x3;
      in_batch_[e.bucket] = 0;
    }
    batch_.clear();
  }

  // λ = (y2 − y1) / (x2 − x1); the x differ (see add).
  Field denominator(const Pending& e) const { return e.point.x - affine_[e.bucket].x; }
  Field numerator(const Pending& e) const { return e.point.y - affine_[e.bucket].y; }

  // sum_b (b + 1)·bucket_b by running sums (see reduce_buckets): two XYZZ additions
  // per bucket.
  Xyzz<Curve> running_sum_reduce() const {
    Xyzz<Curve> running = Xyzz<Curve>::identity();
    Xyzz<Curve> total = Xyzz<Curve>::identity();
    for (std::size_t b = affine_.size(); b-- > 0;) {
      running += affine_[b];
      if (!overflow_[b].is_identity()) running += overflow_[b];
      total += running;
    }
    return total;
  }

  // With the digit m = b + 1 written as hi·2^k + lo,
  //   sum_m m·B_m = sum_lo lo·L_lo + 2^k · sum_hi hi·H_hi,
  // where L_lo sums the buckets with m mod 2^k = lo and H_hi those with m >> k = hi.
  // L and H are filled by batch-affine additions (two per bucket, against the running
  // sums' two XYZZ additions) and are short enough that their own running sums cost
  // little. L is filled in digit order and H in transposed order, so that consecutive
  // additions, hence those in one batch, never hit the same sum.
  Xyzz<Curve> fold_reduce() {
    const std::size_t digits = affine_.size();
    const unsigned k = static_cast<unsigned>(std::bit_width(digits)) / 2;
    const std::size_t lo_mask = (std::size_t{1} << k) - 1;
    const std::size_t hi_top = digits >> k;
    BatchAffineBuckets lo(lo_mask, lo_mask, use_lanes_);
    BatchAffineBuckets hi(hi_top, hi_top, use_lanes_);
    auto fold = [&](BatchAffineBuckets& sums, std::size_t sum, std::size_t m) {
      const std::size_t b = m - 1;
      if (!affine_[b].infinity) sums.add(sum - 1, affine_[b]);
      if (!overflow_[b].is_identity()) sums.overflow_[sum - 1] += overflow_[b];
    };
    for (std::size_t m = 1; m <= digits; ++m) {
      if ((m & lo_mask) != 0) fold(lo, m & lo_mask, m);
    }
    for (std::size_t low = 0; low <= lo_mask; ++low) {
      for (std::size_t high = 1; high <= hi_top; ++high) {
        const std::size_t m = (high << k) | low;
        if (m <= digits) fold(hi, high, m);
      }
    }
    lo.flush();
    hi.flush();
    Xyzz<Curve> high_part = hi.running_sum_reduce();
    for (unsigned i = 0; i < k; ++i) high_part = high_part.dbl();
    return lo.running_sum_reduce() + high_part;
  }

  std::vector<Affine<Curve>> affine_;
  std::vector<Xyzz<Curve>> overflow_;
  std::vector<std::uint8_t> in_batch_;
  std::vector<Pending> batch_;
  std::vector<Pending> waiting_;
  std::vector<Pending> retry_;
  std::vector<Field> prefix_;
#ifdef ZKPIPE_FF_X86_64
  BatchAddScratchX8<Curve> scratch_;
#endif
  std::size_t capacity_ = 0;
  bool use_lanes_;
};

}  // namespace zkpipe::ec::detail
