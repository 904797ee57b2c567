// DeviceMsm::schedule: which point goes into which bucket, and in what order the
// buckets are summed (msm.hpp, steps 0–2). Scalars only: no point arithmetic here,
// and every CUB algorithm of the MSM is instantiated in this file alone.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "gpu/cuda_error.hpp"
#include "gpu/device_profile.hpp"
#include "gpu/field.cuh"
#include "gpu/msm_schedule.cuh"

namespace zkpipe::gpu {

namespace {

using msm_shape::kNegative;
using msm_shape::WindowShape;

constexpr unsigned kThreads = launch::kElementwiseThreads;

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
// the partials before their bucket's.
__global__ void chunk_totals_kernel(const u32* chunks, const u32* chunk_end, u32 buckets, u32* totals) {
  const u32 t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= buckets) return;
  if (t + 1 == buckets) totals[0] = chunk_end[t];
  if (chunks[t] > 1 && (t + 1 == buckets || chunks[t + 1] <= 1)) totals[1] = chunk_end[t];
}

// The chunk length: at least 4× the mean bucket (uniform digits split nothing), and
// at least √(largest bucket), so that a split bucket's sum of its chunks is a chain of
// at most √(largest) additions, as a chunk is one of at most the chunk length.
u32 chunk_length(std::size_t entries, u32 buckets, u32 largest) {
  const auto root = static_cast<u32>(std::ceil(std::sqrt(static_cast<double>(largest))));
  const auto mean = static_cast<u32>((entries + buckets - 1) / buckets);
  return std::max({32u, 4 * mean, root});
}

}  // namespace

void DeviceMsm::mark_phase(int i, cudaStream_t stream) {
  if (!phase_events_.empty()) check(cudaEventRecord(phase_events_[i].get(), stream), "event");
}

MsmSchedule DeviceMsm::schedule(const ff::Fr* scalars, std::size_t n, unsigned window_bits, unsigned kept_window,
                                unsigned widest_window, cudaStream_t stream) {
  const auto* dev_scalars = reinterpret_cast<const Fr*>(scalars);
  mark_phase(0, stream);
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
  MsmSchedule out;
  u32& m = out.general_terms;
  check(cudaMemcpyAsync(&m, terms_.data(), sizeof(u32), cudaMemcpyDeviceToHost, stream), "copy term count");
  check(cudaMemcpyAsync(&out.ones, ones_.data(), sizeof(u32), cudaMemcpyDeviceToHost, stream), "copy ones count");
  check(cudaStreamSynchronize(stream), "select terms");
  if (m == 0) {
    for (int i = 1; i <= 3; ++i) mark_phase(i, stream);
    return out;
  }

  // A sum in parts keeps its buckets' window while it takes no more windows than this
  // part's own would (its sort then needs no more than planned); else this part's.
  const u32 own = window_bits ? window_bits : window_bits_for(m, widest_window);
  const bool keep =
      kept_window != 0 && msm_shape::window_shape(kept_window).windows <= msm_shape::window_shape(own).windows;
  const u32 c = keep ? kept_window : own;
  if (c < 2 || c > kMaxWindowBits) throw std::invalid_argument("DeviceMsm: window_bits out of range");
  out.counts = msm_shape::scratch_counts(m, c);
  const u32 buckets = out.counts.buckets;
  const std::size_t entries = out.counts.entries;
  if (entries >= (std::size_t{1} << 31)) throw std::invalid_argument("DeviceMsm: too many terms for one sort");

  keys_.reserve(entries);
  values_.reserve(entries);
  spare_keys_.reserve(entries);
  spare_values_.reserve(entries);
  bucket_start_.reserve(buckets);
  bucket_end_.reserve(buckets);
  digits_kernel<<<blocks_for(m), kThreads, 0, stream>>>(dev_scalars, terms_.data() + 1, m, out.counts.shape,
                                                        keys_.data(), values_.data());
  check_launch("digits_kernel");
  mark_phase(1, stream);
  const int end_bit = std::bit_width(buckets);  // the sentinel, buckets, needs this many bits
  // Sorted between the two pairs of buffers, so CUB needs no alternate copies of its
  // own: 16 bytes an entry, not 24. The sorted entries end in either pair.
  cub::DoubleBuffer<u32> sort_keys(keys_.data(), spare_keys_.data());
  cub::DoubleBuffer<u32> sort_values(values_.data(), spare_values_.data());
  std::size_t temp_bytes = 0;
  check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, sort_keys, sort_values, static_cast<int>(entries), 0,
                                        end_bit, stream),
        "sort size");
  sort_temp_.reserve(temp_bytes);
  check(cub::DeviceRadixSort::SortPairs(sort_temp_.data(), temp_bytes, sort_keys, sort_values,
                                        static_cast<int>(entries), 0, end_bit, stream),
        "sort");
  out.sorted_values = sort_values.Current();

  mark_phase(2, stream);
  check(cudaMemsetAsync(bucket_start_.data(), 0, buckets * sizeof(u32), stream), "memset starts");
  check(cudaMemsetAsync(bucket_end_.data(), 0, buckets * sizeof(u32), stream), "memset ends");
  bucket_bounds_kernel<<<blocks_for(entries), kThreads, 0, stream>>>(
      sort_keys.Current(), static_cast<u32>(entries), buckets, bucket_start_.data(), bucket_end_.data());
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
  mark_phase(3, stream);
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
  out.plan = {sorted_order_.data(), chunk_end_.data(), buckets, chunk_len, chunk_totals[1]};
  out.chunks = chunk_totals[0];
  return out;
}

}  // namespace zkpipe::gpu
