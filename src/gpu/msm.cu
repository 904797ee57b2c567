#include "gpu/msm.hpp"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "ec/xyzz.hpp"
#include "gpu/cuda_error.hpp"
#include "gpu/device_point.cuh"

namespace zkpipe::gpu {

namespace {

constexpr unsigned kThreads = 256;
// Buckets per segment in the reduction (each thread's running sum), and segment
// sums per outer segment: short, because each thread's additions are a chain of
// dependent ones, whose latency bounds the reduction of small MSMs.
constexpr unsigned kSegmentBuckets = 16;
constexpr unsigned kOuterSegmentLength = 8;
// Threads that sum the scalar-1 points (a power of two, for the tree).
constexpr unsigned kOnesThreads = 1u << 16;
constexpr u32 kNegative = 1u << 31;

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

// Bits [bit, bit + c) of a 256-bit canonical scalar (c ≤ 24).
__device__ __forceinline__ u32 window_of(const Fr& s, u32 bit, u32 c) {
  const u32 limb = bit / 32;
  const u32 off = bit % 32;
  u32 x = 0;
#pragma unroll
  for (u32 i = 0; i < Fr::N; ++i) {
    if (i == limb) x |= s.v[i] >> off;
    if (i == limb + 1 && off != 0) x |= s.v[i] << (32 - off);
  }
  return x & ((1u << c) - 1);
}

// The 256 scalar bits are cut into `windows` windows of near-equal widths (the
// first 256 mod windows are one bit wider), so the top window is as wide as the
// rest: a narrow top window would pour every point into a handful of buckets.
struct WindowShape {
  u32 windows;
  u32 base_bits;
  u32 wider;  // windows with base_bits + 1 bits

  __host__ __device__ u32 bits(u32 w) const { return base_bits + (w < wider ? 1 : 0); }
  __host__ __device__ u32 offset(u32 w) const { return w * base_bits + (w < wider ? w : wider); }
  __host__ __device__ u32 max_bits() const { return base_bits + (wider ? 1 : 0); }
};

WindowShape window_shape(u32 c) {
  const u32 windows = (256 + c - 1) / c;
  return {windows, 256 / windows, 256 % windows};
}

// Terms that go through the buckets: scalars other than 0 and 1. Fully reduced
// Montgomery forms are unique, so both tests compare words (no conversion).
struct IsGeneralTerm {
  const Fr* scalars;
  __device__ bool operator()(u32 i) const {
    const Fr s = scalars[i];
    return !s.is_zero() && !(s == Fr::one());
  }
};

struct IsOneTerm {
  const Fr* scalars;
  __device__ bool operator()(u32 i) const { return scalars[i] == Fr::one(); }
};

// For the k-th general term, i = terms[k]: keys[w·m + k] = w·2^(c−1) + |d_w| − 1 (or
// the sentinel when its digit is 0), values[w·m + k] = i with the digit's sign in
// the top bit; c is the widest window.
__global__ void digits_kernel(const Fr* scalars, const u32* terms, u32 m, WindowShape shape, u32* keys,
                              u32* values) {
  const u32 k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  const u32 i = terms[k];
  const Fr s = scalars[i].to_canonical();
  const u32 half = 1u << (shape.max_bits() - 1);
  const u32 sentinel = shape.windows * half;
  u32 carry = 0;
  for (u32 w = 0; w < shape.windows; ++w) {
    const u32 bits = shape.bits(w);
    u32 d = window_of(s, shape.offset(w), bits) + carry;
    u32 sign = 0;
    carry = 0;
    if (d > (1u << (bits - 1))) {
      d = (1u << bits) - d;
      sign = kNegative;
      carry = 1;
    }
    const std::size_t slot = static_cast<std::size_t>(w) * m + k;
    keys[slot] = d == 0 ? sentinel : w * half + d - 1;
    values[slot] = i | sign;
  }
}

__global__ void bucket_bounds_kernel(const u32* keys, u32 count, u32 sentinel, u32* start, u32* end) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const u32 k = keys[i];
  if (k == sentinel) return;
  if (i == 0 || keys[i - 1] != k) start[k] = i;
  if (i + 1 == count || keys[i + 1] != k) end[k] = i + 1;
}

__global__ void bucket_sizes_kernel(const u32* start, const u32* end, u32 buckets, u32* sizes, u32* order) {
  const u32 b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= buckets) return;
  sizes[b] = end[b] - start[b];
  order[b] = b;
}

// A bucket's entries are cut into chunks of at most chunk_len, one thread each, so
// that a bucket holding many copies of one digit (a witness repeats values: the
// same Merkle sibling under many challenges) cannot hold the whole kernel behind one
// thread's chain of additions. Chunks are numbered in the largest-first bucket
// order; chunk_end[t] is the number of chunks of the buckets order[0 … t].
__global__ void chunk_counts_kernel(const u32* sorted_sizes, u32 buckets, u32 chunk_len, u32* chunks) {
  const u32 t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= buckets) return;
  chunks[t] = (sorted_sizes[t] + chunk_len - 1) / chunk_len;
}

// totals[0]: the chunks of all buckets; totals[1]: those of the buckets cut into more
// than one (they come first: counts fall along the order), whose sums go through
// `partials` before their bucket's.
__global__ void chunk_totals_kernel(const u32* chunks, const u32* chunk_end, u32 buckets, u32* totals) {
  const u32 t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= buckets) return;
  if (t + 1 == buckets) totals[0] = chunk_end[t];
  if (chunks[t] > 1 && (t + 1 == buckets || chunks[t + 1] <= 1)) totals[1] = chunk_end[t];
}

struct ChunkPlan {
  const u32* order;      // buckets, largest first
  const u32* chunk_end;  // per position in that order
  u32 buckets;
  u32 chunk_len;
  u32 split_chunks;      // chunks of the buckets cut into more than one
};

template <class P, unsigned Threads, unsigned MinBlocks>
__global__ void __launch_bounds__(Threads, MinBlocks)
    chunk_accumulate_kernel(const u32* values, const u32* start, const u32* end, ChunkPlan plan, u32 chunks,
                            const typename P::Affine* bases, P* partials, P* out) {
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

// The buckets of no entries (identity) and those cut into several chunks (the sum of
// their partials); a bucket of one chunk was written by its chunk.
template <class P>
__global__ void chunk_combine_kernel(ChunkPlan plan, const P* partials, P* out) {
  const u32 t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= plan.buckets) return;
  const u32 first = t == 0 ? 0 : plan.chunk_end[t - 1];
  const u32 last = plan.chunk_end[t];
  if (last - first == 1) return;
  P acc = P::identity();
  for (u32 j = first; j < last; ++j) acc = acc + partials[j];
  out[plan.order[t]] = acc;
}

template <class P, unsigned Threads, unsigned MinBlocks>
void launch_accumulate(const u32* values, const u32* start, const u32* end, const ChunkPlan& plan, u32 chunks,
                       const typename P::Affine* bases, P* partials, P* out, cudaStream_t stream) {
  if (chunks > 0) {
    chunk_accumulate_kernel<P, Threads, MinBlocks><<<(chunks + Threads - 1) / Threads, Threads, 0, stream>>>(
        values, start, end, plan, chunks, bases, partials, out);
    check_launch("chunk_accumulate_kernel");
  }
  chunk_combine_kernel<P><<<blocks_for(plan.buckets), kThreads, 0, stream>>>(plan, partials, out);
  check_launch("chunk_combine_kernel");
}

// The chunk length: at least 4× the mean bucket (uniform digits split nothing), and
// at least √(largest bucket), so that a split bucket's sum of its chunks is a chain of
// at most √(largest) additions, as a chunk is one of at most the chunk length.
u32 chunk_length(std::size_t entries, u32 buckets, u32 largest) {
  const auto root = static_cast<u32>(std::ceil(std::sqrt(static_cast<double>(largest))));
  const auto mean = static_cast<u32>((entries + buckets - 1) / buckets);
  return std::max({32u, 4 * mean, root});
}

// Over points p_0 … p_(L−1): plain = Σ_j p_j and weighted = Σ_j (j + 1)·p_j, by
// running sums from the top (2L additions).
template <class P>
__device__ __forceinline__ void running_sums(const P* points, u32 len, P& weighted, P& plain) {
  plain = P::identity();
  weighted = P::identity();
  for (u32 j = len; j-- > 0;) {
    plain = plain + points[j];
    weighted = weighted + plain;
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
  running_sums(buckets + static_cast<std::size_t>(t) * segment_len, segment_len, w, p);
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
  running_sums(points + static_cast<std::size_t>(t) * segment_len, segment_len, weighted, plain);
  out[t] = weighted + plain.mul_small(s * segment_len);
}

// points[g·stride + j] += points[g·stride + j + half] for j < half.
template <class P>
__global__ void pair_reduce_kernel(P* points, u32 groups, u32 stride, u32 half) {
  const u32 t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * half) return;
  const u32 g = t / half;
  const u32 j = t % half;
  P* p = points + static_cast<std::size_t>(g) * stride;
  p[j] = p[j] + p[j + half];
}

template <class P>
__global__ void ones_partial_kernel(const u32* ones, const typename P::Affine* bases, P* out) {
  const u32 t = blockIdx.x * blockDim.x + threadIdx.x;
  const u32 count = ones[0];
  const u32 chunk = (count + kOnesThreads - 1) / kOnesThreads;
  const u32 first = min(count, t * chunk);
  const u32 last = min(count, first + chunk);
  P acc = P::identity();
  for (u32 e = first; e < last; ++e) acc = acc.add_affine(bases[ones[1 + e]]);
  out[t] = acc;
}

template <class P>
void tree_reduce(P* points, u32 groups, u32 width, cudaStream_t stream) {
  for (u32 half = width / 2; half >= 1; half /= 2) {
    pair_reduce_kernel<<<blocks_for(std::size_t{groups} * half), kThreads, 0, stream>>>(points, groups, width, half);
    check_launch("pair_reduce_kernel");
  }
}

// The device point types of a host curve.
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

}  // namespace

void DeviceMsm::set_phase_timing(bool on) {
  phase_events_.clear();
  if (on) {
    for (int i = 0; i < kPhaseEvents; ++i) phase_events_.emplace_back(cudaEventDefault);
  }
}

template <class Curve>
void to_device_words(std::span<const ec::Affine<Curve>> points, AffineWords<Curve>* out) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), 1 << 14), [&](const auto& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) {
      const auto& p = points[i];
      out[i] = p.infinity ? AffineWords<Curve>{} : AffineWords<Curve>{p.x, p.y};
    }
  });
}

template void to_device_words(std::span<const ec::Affine<ec::G1Curve>>, AffineWords<ec::G1Curve>*);
template void to_device_words(std::span<const ec::Affine<ec::G2Curve>>, AffineWords<ec::G2Curve>*);

template <class Curve>
DeviceBases<Curve>::DeviceBases(std::span<const ec::Affine<Curve>> points, PinnedStaging& staging,
                                cudaStream_t stream, memory::BufferLedger& ledger)
    : points_(ledger, points.size()), size_(points.size()) {
  staging.upload(points_.data(), points.size(), stream, [&](std::size_t first, std::size_t n, AffineWords<Curve>* out) {
    to_device_words(points.subspan(first, n), out);
  });
  check(cudaStreamSynchronize(stream), "upload bases");
}

template <class Curve>
DeviceBases<Curve>::DeviceBases(std::size_t size, memory::BufferLedger& ledger) : points_(ledger, size), size_(size) {}

template <class Curve>
std::vector<ec::Affine<Curve>> DeviceBases<Curve>::download(cudaStream_t stream) const {
  constexpr std::size_t kChunkPoints = std::size_t{1} << 18;
  std::vector<ec::Affine<Curve>> out(size_);
  PinnedBuffer<AffineWords<Curve>> chunk(std::min(kChunkPoints, std::max<std::size_t>(size_, 1)));
  for (std::size_t first = 0; first < size_; first += kChunkPoints) {
    const std::size_t n = std::min(kChunkPoints, size_ - first);
    check(cudaMemcpyAsync(chunk.data(), points_.data() + first, n * sizeof(AffineWords<Curve>),
                          cudaMemcpyDeviceToHost, stream),
          "download bases");
    check(cudaStreamSynchronize(stream), "download bases");
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 12), [&](const auto& r) {
      for (std::size_t i = r.begin(); i < r.end(); ++i) {
        const AffineWords<Curve>& w = chunk.data()[i];
        const bool infinity = w.x.is_zero() && w.y.is_zero();
        out[first + i] = infinity ? ec::Affine<Curve>::identity() : ec::Affine<Curve>{w.x, w.y, false};
      }
    });
  }
  return out;
}

template class DeviceBases<ec::G1Curve>;
template class DeviceBases<ec::G2Curve>;

template <class Curve>
unsigned DeviceMsm::default_window_bits(std::size_t n) {
  // Fitted to H200 timings of random scalars at 2^16 … 2^26, by ⌈log2 n⌉ (an H
  // query of N − 1 points is sized like N): the best width grows by one per
  // doubling while the sort dominates, then by one per quadrupling, and from 2^24
  // the cheaper bucket reduction pays for 13 windows of 20 bits. G2's reduction
  // kernels hold fewer threads, so its windows stop at 19 bits.
  const int lg = std::bit_width(std::max<std::size_t>(n, 2) - 1);
  const int c = lg <= 18 ? lg - 3 : lg <= 22 ? (lg + 14) / 2 : (lg + 16) / 2;
  const int widest = std::is_same_v<Curve, ec::G2Curve> ? 19 : 20;
  return static_cast<unsigned>(std::clamp(c, 4, widest));
}

template unsigned DeviceMsm::default_window_bits<ec::G1Curve>(std::size_t);
template unsigned DeviceMsm::default_window_bits<ec::G2Curve>(std::size_t);

ec::Jacobian<ec::G1Curve> DeviceMsm::sum(DeviceBasesView<ec::G1Curve> bases, const ff::Fr* scalars, std::size_t n,
                                         cudaStream_t stream, unsigned window_bits) {
  return sum_impl(bases, scalars, n, stream, window_bits);
}

ec::Jacobian<ec::G2Curve> DeviceMsm::sum(DeviceBasesView<ec::G2Curve> bases, const ff::Fr* scalars, std::size_t n,
                                         cudaStream_t stream, unsigned window_bits) {
  return sum_impl(bases, scalars, n, stream, window_bits);
}

namespace {

// How many of each scratch element a sum of n terms at window width c needs.
struct ScratchCounts {
  WindowShape shape;
  u32 half;       // buckets per window
  u32 buckets;    // over all windows
  std::size_t entries;  // (window, digit) terms to sort
  u32 segment_len;
  u32 segments;   // per window
  u32 outer_segment_len;  // the same split of the segments' plain sums
  u32 outer_segments;

  // Per window: the segments' weighted and plain sums, then the outer segments'.
  std::size_t reduce_points() const { return std::size_t{shape.windows} * (2 * segments + outer_segments); }
};

ScratchCounts scratch_counts(std::size_t n, u32 c) {
  const WindowShape shape = window_shape(c);
  const u32 half = 1u << (shape.max_bits() - 1);
  const u32 segment_len = std::min(half, kSegmentBuckets);
  const u32 segments = half / segment_len;
  const u32 outer_segment_len = std::min(segments, kOuterSegmentLength);
  return {shape,        half,     shape.windows * half, static_cast<std::size_t>(shape.windows) * n,
          segment_len,  segments, outer_segment_len,    segments / outer_segment_len};
}

}  // namespace

template <class Curve>
std::size_t DeviceMsm::scratch_bytes(std::size_t n) {
  const ScratchCounts k = scratch_counts(n, default_window_bits<Curve>(n));
  const std::size_t xyzz = 4 * sizeof(typename Curve::Field);
  const std::size_t sort = k.entries * 4 * sizeof(u32)     // keys, values and their sorted copies
                           + k.entries * 2 * sizeof(u32)   // the sort's alternate buffers
                           + (std::size_t{1} << 20);       // its histograms
  const std::size_t per_bucket = 8 * sizeof(u32) + xyzz;   // bounds, order by size, chunk counts, sums
  // Chunks of split buckets: each such bucket exceeds the chunk length, at least 4×
  // the mean, so they number at most 2·entries/chunk_len ≤ buckets / 2.
  const std::size_t partials = (std::size_t{k.buckets} / 2 + 1) * xyzz;
  return sort + std::size_t{k.buckets} * per_bucket + partials + k.reduce_points() * xyzz +
         2 * (n + 1) * sizeof(u32)  // the general terms' and the ones' indices
         + std::size_t{kOnesThreads} * xyzz;
}

template std::size_t DeviceMsm::scratch_bytes<ec::G1Curve>(std::size_t);
template std::size_t DeviceMsm::scratch_bytes<ec::G2Curve>(std::size_t);

template <class Curve>
ec::Jacobian<Curve> DeviceMsm::sum_impl(DeviceBasesView<Curve> bases, const ff::Fr* scalars, std::size_t n,
                                        cudaStream_t stream, unsigned window_bits) {
  using Xyzz = typename DevicePoint<Curve>::Xyzz;
  using Affine = typename Xyzz::Affine;
  using HostField = typename Curve::Field;
  using HostJacobian = ec::Jacobian<Curve>;
  static_assert(sizeof(Xyzz) == 4 * sizeof(HostField) && sizeof(Affine) == sizeof(AffineWords<Curve>));
  if (n > bases.size()) throw std::invalid_argument("DeviceMsm: more scalars than bases");
  if (n == 0) return HostJacobian::identity();
  if (n >= (std::size_t{1} << 31)) throw std::invalid_argument("DeviceMsm: too many terms");
  const auto* dev_scalars = reinterpret_cast<const Fr*>(scalars);
  const auto* dev_bases = reinterpret_cast<const Affine*>(bases.data());
  auto mark = [&](int i) {
    if (!phase_events_.empty()) check(cudaEventRecord(phase_events_[i].get(), stream), "event");
  };
  mark(0);

  // Zero terms drop out and ones are added directly (Filecoin witnesses are mostly
  // bits), so only the rest are cut into digits, sorted and bucketed; the window
  // width follows their count.
  terms_.reserve(n + 1);  // the count, then the indices
  ones_.reserve(n + 1);
  const auto indices = thrust::counting_iterator<u32>(0);
  std::size_t select_bytes = 0;
  check(cub::DeviceSelect::If(nullptr, select_bytes, indices, terms_.data() + 1, terms_.data(), static_cast<int>(n),
                              IsGeneralTerm{dev_scalars}, stream),
        "select size");
  sort_temp_.reserve(select_bytes);
  check(cub::DeviceSelect::If(sort_temp_.data(), select_bytes, indices, terms_.data() + 1, terms_.data(),
                              static_cast<int>(n), IsGeneralTerm{dev_scalars}, stream),
        "select terms");
  check(cub::DeviceSelect::If(sort_temp_.data(), select_bytes, indices, ones_.data() + 1, ones_.data(),
                              static_cast<int>(n), IsOneTerm{dev_scalars}, stream),
        "select ones");
  u32 m = 0;
  check(cudaMemcpyAsync(&m, terms_.data(), sizeof(u32), cudaMemcpyDeviceToHost, stream), "copy term count");
  check(cudaStreamSynchronize(stream), "select terms");

  const u32 c = window_bits ? window_bits : default_window_bits<Curve>(m);
  if (c < 2 || c > 24) throw std::invalid_argument("DeviceMsm: window_bits out of range");
  const ScratchCounts counts = scratch_counts(m, c);
  const WindowShape shape = counts.shape;
  const u32 windows = shape.windows;
  const u32 half = counts.half;
  const u32 buckets = counts.buckets;
  const std::size_t entries = counts.entries;
  if (entries >= (std::size_t{1} << 31)) throw std::invalid_argument("DeviceMsm: too many terms for one sort");
  const u32 segment_len = counts.segment_len;
  const u32 segments = counts.segments;
  const u32 outer_segments = counts.outer_segments;

  keys_.reserve(entries);
  values_.reserve(entries);
  sorted_keys_.reserve(entries);
  sorted_values_.reserve(entries);
  bucket_start_.reserve(buckets);
  bucket_end_.reserve(buckets);
  buckets_.reserve(sizeof(Xyzz) * buckets);
  segments_.reserve(sizeof(Xyzz) * counts.reduce_points());
  ones_partial_.reserve(sizeof(Xyzz) * kOnesThreads);

  auto* dev_buckets = reinterpret_cast<Xyzz*>(buckets_.data());
  auto* dev_weighted = reinterpret_cast<Xyzz*>(segments_.data());
  Xyzz* dev_plain = dev_weighted + std::size_t{windows} * segments;
  Xyzz* dev_outer = dev_plain + std::size_t{windows} * segments;
  auto* dev_ones_partial = reinterpret_cast<Xyzz*>(ones_partial_.data());

  if (m > 0) {
    digits_kernel<<<blocks_for(m), kThreads, 0, stream>>>(dev_scalars, terms_.data() + 1, m, shape, keys_.data(),
                                                          values_.data());
    check_launch("digits_kernel");
    mark(1);
    const int end_bit = std::bit_width(buckets);  // the sentinel, buckets, needs this many bits
    std::size_t temp_bytes = 0;
    check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys_.data(), sorted_keys_.data(), values_.data(),
                                          sorted_values_.data(), static_cast<int>(entries), 0, end_bit, stream),
          "sort size");
    sort_temp_.reserve(temp_bytes);
    check(cub::DeviceRadixSort::SortPairs(sort_temp_.data(), temp_bytes, keys_.data(), sorted_keys_.data(),
                                          values_.data(), sorted_values_.data(), static_cast<int>(entries), 0, end_bit,
                                          stream),
          "sort");

    mark(2);
    check(cudaMemsetAsync(bucket_start_.data(), 0, buckets * sizeof(u32), stream), "memset starts");
    check(cudaMemsetAsync(bucket_end_.data(), 0, buckets * sizeof(u32), stream), "memset ends");
    bucket_bounds_kernel<<<blocks_for(entries), kThreads, 0, stream>>>(
        sorted_keys_.data(), static_cast<u32>(entries), buckets, bucket_start_.data(), bucket_end_.data());
    check_launch("bucket_bounds_kernel");
    // Buckets by size, largest first: a warp's threads then add similar counts of
    // points instead of all waiting for the warp's fullest bucket.
    bucket_order_.reserve(buckets);
    bucket_sizes_.reserve(buckets);
    sorted_order_.reserve(buckets);
    sorted_sizes_.reserve(buckets);
    bucket_sizes_kernel<<<blocks_for(buckets), kThreads, 0, stream>>>(bucket_start_.data(), bucket_end_.data(), buckets,
                                                                     bucket_sizes_.data(), bucket_order_.data());
    check_launch("bucket_sizes_kernel");
    const int size_bits = std::bit_width(n);
    std::size_t order_temp_bytes = 0;
    check(cub::DeviceRadixSort::SortPairsDescending(nullptr, order_temp_bytes, bucket_sizes_.data(),
                                                    sorted_sizes_.data(), bucket_order_.data(), sorted_order_.data(),
                                                    static_cast<int>(buckets), 0, size_bits, stream),
          "bucket order size");
    sort_temp_.reserve(order_temp_bytes);
    check(cub::DeviceRadixSort::SortPairsDescending(sort_temp_.data(), order_temp_bytes, bucket_sizes_.data(),
                                                    sorted_sizes_.data(), bucket_order_.data(), sorted_order_.data(),
                                                    static_cast<int>(buckets), 0, size_bits, stream),
          "bucket order");
    mark(3);
    // The chunks (chunk_accumulate_kernel), cut by the largest bucket's size.
    u32 largest = 0;
    check(cudaMemcpyAsync(&largest, sorted_sizes_.data(), sizeof(u32), cudaMemcpyDeviceToHost, stream),
          "copy the largest bucket's size");
    check(cudaStreamSynchronize(stream), "bucket order");
    const u32 chunk_len = chunk_length(entries, buckets, largest);
    chunk_counts_.reserve(buckets);
    chunk_end_.reserve(buckets);
    chunk_totals_.reserve(2);
    chunk_counts_kernel<<<blocks_for(buckets), kThreads, 0, stream>>>(sorted_sizes_.data(), buckets, chunk_len,
                                                                     chunk_counts_.data());
    check_launch("chunk_counts_kernel");
    std::size_t scan_bytes = 0;
    check(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, chunk_counts_.data(), chunk_end_.data(),
                                        static_cast<int>(buckets), stream),
          "chunk scan size");
    sort_temp_.reserve(scan_bytes);
    check(cub::DeviceScan::InclusiveSum(sort_temp_.data(), scan_bytes, chunk_counts_.data(), chunk_end_.data(),
                                        static_cast<int>(buckets), stream),
          "chunk scan");
    check(cudaMemsetAsync(chunk_totals_.data(), 0, 2 * sizeof(u32), stream), "memset chunk totals");
    chunk_totals_kernel<<<blocks_for(buckets), kThreads, 0, stream>>>(chunk_counts_.data(), chunk_end_.data(), buckets,
                                                                     chunk_totals_.data());
    check_launch("chunk_totals_kernel");
    u32 chunk_totals[2] = {};
    check(cudaMemcpyAsync(chunk_totals, chunk_totals_.data(), sizeof chunk_totals, cudaMemcpyDeviceToHost, stream),
          "copy chunk totals");
    check(cudaStreamSynchronize(stream), "chunk plan");
    partials_.reserve(sizeof(Xyzz) * chunk_totals[1]);
    const ChunkPlan plan{sorted_order_.data(), chunk_end_.data(), buckets, chunk_len, chunk_totals[1]};
    auto* dev_partials = reinterpret_cast<Xyzz*>(partials_.data());
    // G1: at most 128 registers, four blocks of 128 per SM (16 warps; the unbounded
    // kernel fits only 8). G2 points need every register: blocks of 64.
    if constexpr (std::is_same_v<Curve, ec::G2Curve>) {
      launch_accumulate<Xyzz, 64, 1>(sorted_values_.data(), bucket_start_.data(), bucket_end_.data(), plan,
                                     chunk_totals[0], dev_bases, dev_partials, dev_buckets, stream);
    } else {
      launch_accumulate<Xyzz, 128, 4>(sorted_values_.data(), bucket_start_.data(), bucket_end_.data(), plan,
                                      chunk_totals[0], dev_bases, dev_partials, dev_buckets, stream);
    }
    mark(4);
    segment_sums_kernel<<<blocks_for(std::size_t{windows} * segments), kThreads, 0, stream>>>(
        dev_buckets, windows, half, segment_len, dev_weighted, dev_plain);
    check_launch("segment_sums_kernel");
    segment_reduce_kernel<<<blocks_for(std::size_t{windows} * outer_segments), kThreads, 0, stream>>>(
        dev_plain, windows, segments, counts.outer_segment_len, dev_outer);
    check_launch("segment_reduce_kernel");
    tree_reduce(dev_weighted, 2 * windows, segments, stream);  // the weighted sums, then the plain ones
    tree_reduce(dev_outer, windows, outer_segments, stream);
    mark(5);
  } else {
    for (int i = 1; i <= 5; ++i) mark(i);
  }

  ones_partial_kernel<<<kOnesThreads / kThreads, kThreads, 0, stream>>>(ones_.data(), dev_bases, dev_ones_partial);
  check_launch("ones_partial_kernel");
  tree_reduce(dev_ones_partial, 1, kOnesThreads, stream);
  mark(6);

  // After the trees each window's sums are the first of its group: Σ_s weighted_s,
  // Σ_s plain_s and Σ_s (s + 1)·plain_s.
  auto copy_firsts = [&](const Xyzz* group_sums, u32 group_len, std::vector<HostField>& out) {
    out.resize(std::size_t{4} * windows);
    check(cudaMemcpy2DAsync(out.data(), sizeof(Xyzz), group_sums, sizeof(Xyzz) * group_len, sizeof(Xyzz), windows,
                            cudaMemcpyDeviceToHost, stream),
          "copy window sums");
  };
  std::vector<HostField> weighted_sums, plain_sums, outer_sums;
  if (m > 0) {
    copy_firsts(dev_weighted, segments, weighted_sums);
    copy_firsts(dev_plain, segments, plain_sums);
    copy_firsts(dev_outer, outer_segments, outer_sums);
  }
  std::vector<HostField> ones_sum(4);
  check(cudaMemcpyAsync(ones_sum.data(), ones_partial_.data(), 4 * sizeof(HostField), cudaMemcpyDeviceToHost,
                        stream),
        "copy ones sum");
  check(cudaStreamSynchronize(stream), "msm");
  if (!phase_events_.empty()) {
    float ms[kPhaseEvents - 1];
    for (int i = 0; i + 1 < kPhaseEvents; ++i) {
      check(cudaEventElapsedTime(&ms[i], phase_events_[i].get(), phase_events_[i + 1].get()), "elapsed");
    }
    phases_ = {ms[0], ms[1], ms[2], ms[3], ms[4], ms[5]};
  }

  HostJacobian acc = HostJacobian::identity();
  for (u32 w = m > 0 ? windows : 0; w-- > 0;) {
    for (u32 i = 0; i < shape.bits(w); ++i) acc = acc.dbl();
    // Σ_s s·plain_s = Σ_s (s + 1)·plain_s − Σ_s plain_s, times L = 2^k.
    HostJacobian outer =
        to_host<Curve>(&outer_sums[std::size_t{4} * w]) - to_host<Curve>(&plain_sums[std::size_t{4} * w]);
    for (u32 len = segment_len; len > 1; len /= 2) outer = outer.dbl();
    acc = acc + to_host<Curve>(&weighted_sums[std::size_t{4} * w]) + outer;
  }
  return acc + to_host<Curve>(ones_sum.data());
}

}  // namespace zkpipe::gpu
