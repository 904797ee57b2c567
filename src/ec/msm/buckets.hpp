// Pippenger's bucket method over signed-digit windows, with XYZZ or batch-affine
// buckets (batch_affine.hpp).
//
// The work is split into (pass, chunk) tasks: each task sorts one chunk of points
// into its own 2^(c-1) buckets by their digit for the pass's windows, then reduces the
// buckets by running sums to sum_b b·bucket_b. Reducing per chunk and adding the
// results is exact, since the reduction is linear in the buckets. Passes are combined
// by doubling (Horner).
//
// With precomputed bases each base comes in `copies` shifted copies,
// copy j = 2^(j·q·c)·base with q = ceil(W / copies), so one pass v covers the windows
// v, v + q, v + 2q, ... (window v + j·q reads copy j): q passes instead of W, and
// only q·c doublings. Plain MSMs are the case copies = 1.
#pragma once

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ec/msm/batch_affine.hpp"
#include "ec/msm/digits.hpp"
#include "ec/msm/options.hpp"
#include "ec/msm/plan.hpp"
#include "ec/xyzz.hpp"

namespace zkpipe::ec::detail {

template <class Curve>
struct BucketInput {
  // copies consecutive points per base: table[i·copies + j] = 2^(j·passes·c)·base_i.
  std::span<const Affine<Curve>> table;
  unsigned copies = 1;
  // q = ceil(W / copies): the passes, each covering windows v, v + q, ...
  unsigned passes = 1;
  // The terms: base index and recoded scalar.
  std::span<const std::uint32_t> indices;
  std::span<const RecodedScalar> scalars;
};

// sum_b (b + 1)·buckets[b], as the running sums S_b = buckets[b] + ... + buckets[top]
// added up: two additions per bucket instead of a multiplication.
template <class Curve>
Xyzz<Curve> reduce_buckets(std::span<const Xyzz<Curve>> buckets) {
  Xyzz<Curve> running = Xyzz<Curve>::identity();
  Xyzz<Curve> total = Xyzz<Curve>::identity();
  for (std::size_t b = buckets.size(); b-- > 0;) {
    running += buckets[b];
    total += running;
  }
  return total;
}

template <class Curve>
class XyzzBuckets {
 public:
  explicit XyzzBuckets(std::size_t buckets) : buckets_(buckets) {}
  void add(std::size_t bucket, const Affine<Curve>& p) { buckets_[bucket] += p; }
  Xyzz<Curve> reduce() const { return reduce_buckets<Curve>(buckets_); }

 private:
  std::vector<Xyzz<Curve>> buckets_;
};

// Batches of about this many additions share one inversion: a quarter of the buckets
// (terms that meet their bucket again in a batch wait for the next one), at most 256
// so that a G2 batch's staging stays in the core's cache. The top
// window reaches only a few hundred of its buckets (2^255 does not fill the last
// window), so its batches are cut to half of those.
inline std::size_t batch_affine_batch_size(const WindowLayout& layout, unsigned copies, unsigned pass) {
  std::size_t batch = std::clamp<std::size_t>(layout.buckets() / 4, 64, 256);
  if (copies == 1) batch = std::min(batch, std::max<std::size_t>(layout.digit_bound(pass) / 2, 8));
  return batch;
}

inline bool use_batch_affine(MsmBuckets kind, const WindowLayout& layout) {
  if (kind == MsmBuckets::automatic) return layout.bits() >= kBatchAffineMinBits;
  return kind == MsmBuckets::batch_affine || kind == MsmBuckets::batch_affine_scalar;
}

// One task: the points [begin, end) of the input, sorted into buckets for pass `pass`.
template <class Curve, class Buckets>
Xyzz<Curve> accumulate_chunk(const BucketInput<Curve>& in, const WindowLayout& layout,
                             unsigned pass, std::size_t begin, std::size_t end, Buckets buckets) {
  for (std::size_t e = begin; e < end; ++e) {
    const Affine<Curve>* copies = in.table.data() + std::size_t{in.indices[e]} * in.copies;
    unsigned window = pass;
    for (unsigned j = 0; j < in.copies && window < layout.windows(); ++j, window += in.passes) {
      const std::int32_t digit = layout.digit(in.scalars[e], window);
      if (digit > 0) {
        buckets.add(static_cast<std::size_t>(digit - 1), copies[j]);
      } else if (digit < 0) {
        buckets.add(static_cast<std::size_t>(-digit - 1), -copies[j]);
      }
    }
  }
  return buckets.reduce();
}

// sum of scalar·base over the input's terms.
template <class Curve>
Jacobian<Curve> bucket_msm(const BucketInput<Curve>& in, const WindowLayout& layout,
                           MsmBuckets kind, std::size_t threads) {
  const std::size_t points = in.indices.size();
  if (points == 0) return Jacobian<Curve>::identity();
  const unsigned passes = in.passes;
  const std::size_t chunks = choose_chunks(passes, points, threads);

  std::vector<Xyzz<Curve>> task_sums(passes * chunks);
  tbb::parallel_for(std::size_t{0}, task_sums.size(), [&](std::size_t task) {
    const auto pass = static_cast<unsigned>(task / chunks);
    const std::size_t chunk = task % chunks;
    const std::size_t begin = points * chunk / chunks;
    const std::size_t end = points * (chunk + 1) / chunks;
    task_sums[task] =
        use_batch_affine(kind, layout)
            ? accumulate_chunk(
                  in, layout, pass, begin, end,
                  BatchAffineBuckets<Curve>(layout.buckets(), batch_affine_batch_size(layout, in.copies, pass),
                                            kind != MsmBuckets::batch_affine_scalar))
            : accumulate_chunk(in, layout, pass, begin, end, XyzzBuckets<Curve>(layout.buckets()));
  });

  Jacobian<Curve> result = Jacobian<Curve>::identity();
  for (unsigned pass = passes; pass-- > 0;) {
    for (unsigned d = 0; d < layout.bits(); ++d) result = result.dbl();
    Xyzz<Curve> pass_sum = Xyzz<Curve>::identity();
    for (std::size_t chunk = 0; chunk < chunks; ++chunk)
      pass_sum += task_sums[pass * chunks + chunk];
    result += pass_sum.to_jacobian();
  }
  return result;
}

}  // namespace zkpipe::ec::detail
