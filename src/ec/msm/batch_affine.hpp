// Batch-affine bucket accumulation: buckets kept as affine points and additions
// done in batches that share one field inversion (ec/batch_add.hpp). An affine
// bucket is half the size of an XYZZ one.
//
// A batch may touch each bucket only once (the additions are computed together), so
// a term whose bucket is already in the batch waits for the next batch. When a
// batch's worth of terms already waits, a batch at least half full is computed early;
// otherwise (many equal digits) the term goes to a second, XYZZ bucket array, which
// keeps the cost at the XYZZ level rather than degrading to one inversion per
// addition. A term equal to its bucket (a doubling,
// rare) goes to the XYZZ array too, so a batch only ever holds
// additions of distinct x, the form BatchAdder computes.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/batch_add.hpp"
#include "ec/xyzz.hpp"

namespace zkpipe::ec::detail {

template <class Curve>
class BatchAffineBuckets {
 public:
  // Batches are capped so that a batch rarely hits the same bucket twice. With
  // use_lanes, batches are computed eight additions at a time where the processor
  // has AVX-512 IFMA.
  BatchAffineBuckets(std::size_t buckets, std::size_t batch, bool use_lanes)
      : affine_(buckets), overflow_(buckets), in_batch_(buckets, 0), adder_(use_lanes) {
    batch_.reserve(batch);
    waiting_.reserve(batch);
    retry_.reserve(batch);
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
    adder_.add(affine_, batch_);
    for (const Pending& e : batch_) in_batch_[e.bucket] = 0;
    batch_.clear();
  }

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
    BatchAffineBuckets lo(lo_mask, lo_mask, adder_.uses_lanes());
    BatchAffineBuckets hi(hi_top, hi_top, adder_.uses_lanes());
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
  BatchAdder<Curve> adder_;
  std::size_t capacity_ = 0;
};

}  // namespace zkpipe::ec::detail
