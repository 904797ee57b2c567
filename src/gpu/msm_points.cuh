// The point kernels of DeviceMsm (msm.hpp, steps 3–6) and the sum that drives them
// after the schedule, templated on the curve. Included by msm_g1.cu and msm_g2.cu
// only, one curve each, so that the two curves' kernels compile in parallel and
// each file carries one curve's point arithmetic.
#pragma once

#include <type_traits>
#include <vector>

#include "ec/xyzz.hpp"
#include "gpu/cuda_error.hpp"
#include "gpu/device_point.cuh"
#include "gpu/device_profile.hpp"
#include "gpu/msm_schedule.cuh"

namespace zkpipe::gpu::msm_points {

using msm_shape::kNegative;
using msm_shape::kOnesThreads;

constexpr unsigned kThreads = launch::kElementwiseThreads;

inline unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// Where a chunk's chain of additions starts: from the identity, from what its
// bucket holds (a bucket's first chunk, in a later part of a sum in parts), or from
// its own partial (the ones' chunks, whose partials persist from part to part).
enum class ChainFrom : u32 { identity, bucket, partial };

template <class P, unsigned Threads, unsigned MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks)
    chunk_accumulate_kernel(const u32* values, const u32* start, const u32* end, ChunkPlan plan, u32 chunks,
                            const typename P::Affine* bases, P* partials, P* out, ChainFrom from) {
  const u32 j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= chunks) return;
  u32 lo = 0;  // the first position whose chunk_end exceeds j
  u32 hi = plan.buckets - 1;
  while (lo < hi) {
    const u32 mid = (lo + hi) / 2;
    if (plan.chunk_end[mid] > j) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  const u32 first_chunk = lo == 0 ? 0 : plan.chunk_end[lo - 1];
  const u32 b = plan.order[lo];
  const u32 first = start[b] + (j - first_chunk) * plan.chunk_len;
  const u32 last = min(end[b], first + plan.chunk_len);
  P acc = P::identity();
  if (from == ChainFrom::partial) {
    acc = partials[j];
  } else if (from == ChainFrom::bucket && j == first_chunk) {
    acc = out[b];
  }
  for (u32 e = first; e < last; ++e) {
    const u32 v = values[e];
    const typename P::Affine p = bases[v & ~kNegative];
    acc = acc.add_affine((v & kNegative) ? -p : p);
  }
  if (j < plan.split_chunks) {
    partials[j] = acc;
  } else {
    out[b] = acc;
  }
}

// The buckets cut into several chunks (the sum of their partials, the first of
// which started from the bucket when `kept`) and, unless the buckets are `kept`
// from an earlier part, those of no entries (identity); a bucket of one chunk was
// written by its chunk.
template <class P>
__global__ void chunk_combine_kernel(ChunkPlan plan, const P* partials, P* out, bool kept) {
  const u32 t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= plan.buckets) return;
  const u32 first = t == 0 ? 0 : plan.chunk_end[t - 1];
  const u32 last = plan.chunk_end[t];
  if (last - first == 1 || (kept && last == first)) return;
  P acc = P::identity();
  for (u32 j = first; j < last; ++j) acc = outlined_add(acc, partials[j]);
  out[plan.order[t]] = acc;
}

// Every chunk of the plan through chunk_accumulate_kernel, at the launch bounds of
// P's curve: one instantiation per file, which the buckets and the ones share.
template <class P>
void launch_chunks(const u32* values, const u32* start, const u32* end, const ChunkPlan& plan, u32 chunks,
                   const typename P::Affine* bases, P* partials, P* out, ChainFrom from, cudaStream_t stream) {
  if (chunks == 0) return;
  constexpr bool g2 = std::is_same_v<P, G2Xyzz>;
  constexpr unsigned threads = g2 ? launch::kG2AccumulateThreads : launch::kG1AccumulateThreads;
  constexpr unsigned min_blocks = g2 ? launch::kG2AccumulateMinBlocks : launch::kG1AccumulateMinBlocks;
  chunk_accumulate_kernel<P, threads, min_blocks><<<(chunks + threads - 1) / threads, threads, 0, stream>>>(
      values, start, end, plan, chunks, bases, partials, out, from);
  check_launch("chunk_accumulate_kernel");
}

// The reduction (running sums over buckets, trees) calls G2's addition out of line:
// it is ~3 % of a G2 sum, and inlined it cost the file minutes of nvcc per
// architecture (xyzz.cuh). G1's stays inline: a witness MSM's general terms are
// few, so its reduction is a larger share (outlined, it cost a 2^24 G1 sum 1 %).
template <class P>
inline constexpr bool kOutlinedReduction = std::is_same_v<P, G2Xyzz>;

// Over points p_0 … p_(L−1): plain = Σ_j p_j and weighted = Σ_j (j + 1)·p_j, by
// running sums from the top (2L additions).
template <bool Outlined, class P>
__device__ __forceinline__ void running_sums(const P* points, u32 len, P& weighted, P& plain) {
  plain = P::identity();
  weighted = P::identity();
  for (u32 j = len; j-- > 0;) {
    if constexpr (Outlined) {
      plain = outlined_add(plain, points[j]);
      weighted = outlined_add(weighted, plain);
    } else {
      plain = plain + points[j];
      weighted = weighted + plain;
    }
  }
}

// Segment s of window w holds buckets [s·L, (s+1)·L) (digits s·L + 1 …):
// weighted[t] = Σ_j (j + 1)·bucket_(s·L+j) and plain[t] = Σ_j bucket_(s·L+j), by
// running_sums. The window's Σ_d d·bucket_d is Σ_s weighted_s + L·Σ_s s·plain_s,
// and the second sum is the same kind of weighted sum over the segments, L times
// shorter (segment_reduce_kernel).
template <class P>
__global__ void segment_sums_kernel(const P* buckets, u32 windows, u32 half, u32 segment_len, P* weighted,
                                    P* plain) {
  const u32 segments = half / segment_len;
  const u32 t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= windows * segments) return;
  P w;  // locals: sums into global memory would be stored at every step
  P p;
  running_sums<kOutlinedReduction<P>>(buckets + static_cast<std::size_t>(t) * segment_len, segment_len, w,
                                        p);
  weighted[t] = w;
  plain[t] = p;
}

// Σ_j (s·L + j + 1)·points_(s·L+j) for segment s of each group of `half` points.
template <class P>
__global__ void segment_reduce_kernel(const P* points, u32 groups, u32 half, u32 segment_len, P* out) {
  const u32 segments = half / segment_len;
  const u32 t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * segments) return;
  const u32 s = t % segments;
  P weighted;
  P plain;
  running_sums<kOutlinedReduction<P>>(points + static_cast<std::size_t>(t) * segment_len, segment_len, weighted,
                                        plain);
  const P rest = plain.mul_small(s * segment_len);
  if constexpr (kOutlinedReduction<P>) {
    out[t] = outlined_add(weighted, rest);
  } else {
    out[t] = weighted + rest;
  }
}

// points[g·stride + j] += points[g·stride + j + half] for j < half.
template <class P>
__global__ void pair_reduce_kernel(P* points, u32 groups, u32 stride, u32 half) {
  const u32 t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * half) return;
  const u32 g = t / half;
  const u32 j = t % half;
  P* p = points + static_cast<std::size_t>(g) * stride;
  if constexpr (kOutlinedReduction<P>) {
    p[j] = outlined_add(p[j], p[j + half]);
  } else {
    p[j] = p[j] + p[j + half];
  }
}

template <class P>
void tree_reduce(P* points, u32 groups, u32 width, cudaStream_t stream) {
  for (u32 half = width / 2; half >= 1; half /= 2) {
    pair_reduce_kernel<<<blocks_for(std::size_t{groups} * half), kThreads, 0, stream>>>(points, groups, width, half);
    check_launch("pair_reduce_kernel");
  }
}

// A device XYZZ point read back as its four coordinates.
template <class Curve>
ec::Jacobian<Curve> to_host(const typename Curve::Field* words) {
  ec::Xyzz<Curve> p;
  p.X = words[0];
  p.Y = words[1];
  p.ZZ = words[2];
  p.ZZZ = words[3];
  return p.to_jacobian();
}

}  // namespace zkpipe::gpu::msm_points

namespace zkpipe::gpu {

template <class Curve>
void DeviceMsm::add_part(DeviceBasesView<Curve> bases, const ff::Fr* scalars, std::size_t n, cudaStream_t stream) {
  using namespace msm_points;
  using Xyzz = typename DevicePoint<Curve>::Xyzz;
  using Affine = typename Xyzz::Affine;
  static_assert(sizeof(Affine) == sizeof(AffineWords<Curve>));
  check_parts_open<Curve>("add_part");
  if (n > bases.size()) throw std::invalid_argument("DeviceMsm: more scalars than bases");
  if (n >= (std::size_t{1} << 31)) throw std::invalid_argument("DeviceMsm: too many terms");
  if (n == 0) return;
  const auto* dev_bases = reinterpret_cast<const Affine*>(bases.data());
  // The widest window's width gives the buckets' shape again.
  const unsigned kept_window = parts_.buckets_filled ? parts_.counts.shape.max_bits() : 0;
  const MsmSchedule plan =
      schedule(scalars, n, parts_.window_bits, kept_window, kWidestDefaultWindow<Curve>, stream);

  if (plan.general_terms > 0) {
    const msm_shape::ScratchCounts& counts = plan.counts;
    if (parts_.buckets_filled && counts.shape.max_bits() != kept_window) {
      // A wider window than the buckets': what they hold is summed now, and this part
      // fills them again at its shape.
      reduced_early<Curve>() = reduced_early<Curve>() + reduce_buckets<Curve>(stream);
      parts_.buckets_filled = false;
    }
    const bool kept = parts_.buckets_filled;
    if (!kept) parts_.counts = counts;
    buckets_.reserve(sizeof(Xyzz) * counts.buckets);
    partials_.reserve(sizeof(Xyzz) * plan.plan.split_chunks);
    auto* dev_buckets = reinterpret_cast<Xyzz*>(buckets_.data());
    auto* dev_partials = reinterpret_cast<Xyzz*>(partials_.data());
    launch_chunks(plan.sorted_values, bucket_start_.data(), bucket_end_.data(), plan.plan, plan.chunks,
                  dev_bases, dev_partials, dev_buckets, kept ? ChainFrom::bucket : ChainFrom::identity, stream);
    chunk_combine_kernel<Xyzz><<<blocks_for(plan.plan.buckets), kThreads, 0, stream>>>(plan.plan, dev_partials,
                                                                                       dev_buckets, kept);
    check_launch("chunk_combine_kernel");
    parts_.buckets_filled = true;
  }
  mark_phase(4, stream);

  // The ones are one more bucket, cut into at most kOnesThreads chunks, each adding
  // to its own partial (cleared by the first part with ones; zeros read as the
  // identity); end_parts sums the partials by a tree.
  if (plan.ones > 0) {
    ones_partial_.reserve(sizeof(Xyzz) * kOnesThreads);
    auto* dev_ones_partial = reinterpret_cast<Xyzz*>(ones_partial_.data());
    if (!parts_.ones_added) {
      check(cudaMemsetAsync(dev_ones_partial, 0, sizeof(Xyzz) * kOnesThreads, stream), "clear the ones' partials");
    }
    parts_.ones_added = true;
    const u32 chunk_len = (plan.ones + kOnesThreads - 1) / kOnesThreads;
    const u32 chunks = (plan.ones + chunk_len - 1) / chunk_len;
    const u32 bucket[4] = {0, plan.ones, 0, chunks};  // start, end, order, chunk_end
    ones_bucket_.reserve(4);
    check(cudaMemcpyAsync(ones_bucket_.data(), bucket, sizeof bucket, cudaMemcpyHostToDevice, stream),
          "upload the ones' bucket");
    const u32* d = ones_bucket_.data();
    launch_chunks(ones_.data() + 1, d, d + 1, ChunkPlan{d + 2, d + 3, 1, chunk_len, chunks}, chunks, dev_bases,
                  dev_ones_partial, dev_ones_partial, ChainFrom::partial, stream);
  }
  mark_phase(5, stream);
  // The next part's schedule reuses the sort's buffers and the ones' indices.
  check(cudaStreamSynchronize(stream), "msm part");
}

template <class Curve>
ec::Jacobian<Curve> DeviceMsm::reduce_buckets(cudaStream_t stream) {
  using namespace msm_points;
  using Xyzz = typename DevicePoint<Curve>::Xyzz;
  using HostField = typename Curve::Field;
  using HostJacobian = ec::Jacobian<Curve>;
  static_assert(sizeof(Xyzz) == 4 * sizeof(HostField));
  const msm_shape::ScratchCounts& counts = parts_.counts;
  const u32 windows = counts.shape.windows;
  segments_.reserve(sizeof(Xyzz) * counts.reduce_points());
  auto* dev_weighted = reinterpret_cast<Xyzz*>(segments_.data());
  Xyzz* dev_plain = dev_weighted + std::size_t{windows} * counts.segments;
  Xyzz* dev_outer = dev_plain + std::size_t{windows} * counts.segments;
  const auto* dev_buckets = reinterpret_cast<const Xyzz*>(buckets_.data());
  segment_sums_kernel<<<blocks_for(std::size_t{windows} * counts.segments), kThreads, 0, stream>>>(
      dev_buckets, windows, counts.half, counts.segment_len, dev_weighted, dev_plain);
  check_launch("segment_sums_kernel");
  segment_reduce_kernel<<<blocks_for(std::size_t{windows} * counts.outer_segments), kThreads, 0, stream>>>(
      dev_plain, windows, counts.segments, counts.outer_segment_len, dev_outer);
  check_launch("segment_reduce_kernel");
  tree_reduce(dev_weighted, 2 * windows, counts.segments, stream);  // the weighted sums, then the plain ones
  tree_reduce(dev_outer, windows, counts.outer_segments, stream);

  // After the trees each window's sums are the first of its group: Σ_s weighted_s,
  // Σ_s plain_s and Σ_s (s + 1)·plain_s.
  auto copy_firsts = [&](const Xyzz* group_sums, u32 group_len, std::vector<HostField>& out) {
    out.resize(std::size_t{4} * windows);
    check(cudaMemcpy2DAsync(out.data(), sizeof(Xyzz), group_sums, sizeof(Xyzz) * group_len, sizeof(Xyzz), windows,
                            cudaMemcpyDeviceToHost, stream),
          "copy window sums");
  };
  std::vector<HostField> weighted_sums, plain_sums, outer_sums;
  copy_firsts(dev_weighted, counts.segments, weighted_sums);
  copy_firsts(dev_plain, counts.segments, plain_sums);
  copy_firsts(dev_outer, counts.outer_segments, outer_sums);
  check(cudaStreamSynchronize(stream), "msm reduction");

  HostJacobian acc = HostJacobian::identity();
  for (u32 w = windows; w-- > 0;) {
    for (u32 i = 0; i < counts.shape.bits(w); ++i) acc = acc.dbl();
    // Σ_s s·plain_s = Σ_s (s + 1)·plain_s − Σ_s plain_s, times L = 2^k.
    HostJacobian outer =
        to_host<Curve>(&outer_sums[std::size_t{4} * w]) - to_host<Curve>(&plain_sums[std::size_t{4} * w]);
    for (u32 len = counts.segment_len; len > 1; len /= 2) outer = outer.dbl();
    acc = acc + to_host<Curve>(&weighted_sums[std::size_t{4} * w]) + outer;
  }
  return acc;
}

template <class Curve>
ec::Jacobian<Curve> DeviceMsm::end_parts(cudaStream_t stream) {
  using namespace msm_points;
  using Xyzz = typename DevicePoint<Curve>::Xyzz;
  using HostField = typename Curve::Field;
  using HostJacobian = ec::Jacobian<Curve>;
  check_parts_open<Curve>("end_parts");
  parts_.open = false;
  const bool filled = parts_.buckets_filled;
  const bool ones = parts_.ones_added;
  HostJacobian acc = reduced_early<Curve>();
  if (!filled && !ones) return acc;
  if (filled) acc = acc + reduce_buckets<Curve>(stream);
  mark_phase(6, stream);
  std::vector<HostField> ones_sum(4);
  if (ones) {
    tree_reduce(reinterpret_cast<Xyzz*>(ones_partial_.data()), 1, kOnesThreads, stream);
    check(cudaMemcpyAsync(ones_sum.data(), ones_partial_.data(), 4 * sizeof(HostField), cudaMemcpyDeviceToHost,
                          stream),
          "copy ones sum");
  }
  mark_phase(7, stream);
  check(cudaStreamSynchronize(stream), "msm");
  if (!phase_events_.empty()) {
    float ms[kPhaseEvents - 1];
    for (int i = 0; i + 1 < kPhaseEvents; ++i) {
      check(cudaEventElapsedTime(&ms[i], phase_events_[i].get(), phase_events_[i + 1].get()), "elapsed");
    }
    phases_ = {ms[0], ms[1], ms[2], ms[3], ms[5], ms[4] + ms[6]};
  }
  return ones ? acc + to_host<Curve>(ones_sum.data()) : acc;
}

}  // namespace zkpipe::gpu
