// The host side of the device MSM: bases in and out of the device layout, the
// window width and scratch estimates, phase timing. The kernels are in
// msm_schedule.cu and msm_points.cuh (msm_g1.cu, msm_g2.cu).
#include "gpu/msm.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <numeric>
#include <vector>

#include "gpu/cuda_error.hpp"
#include "gpu/msm_shape.hpp"

namespace zkpipe::gpu {

void DeviceMsm::set_phase_timing(bool on) {
  phase_events_.clear();
  if (on) {
    for (int i = 0; i < kPhaseEvents; ++i) phase_events_.emplace_back(cudaEventDefault);
  }
}

namespace {

template <class Curve>
AffineWords<Curve> device_words(const ec::Affine<Curve>& p) {
  return p.infinity ? AffineWords<Curve>{} : AffineWords<Curve>{p.x, p.y};
}

}  // namespace

template <class Curve>
void to_device_words(std::span<const ec::Affine<Curve>> points, AffineWords<Curve>* out) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), 1 << 14), [&](const auto& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) out[i] = device_words(points[i]);
  });
}

template <class Curve>
void gather_device_words(std::span<const ec::Affine<Curve>> points, std::span<const std::uint32_t> indices,
                         AffineWords<Curve>* out) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, indices.size(), 1 << 14), [&](const auto& r) {
    for (std::size_t j = r.begin(); j < r.end(); ++j) out[j] = device_words(points[indices[j]]);
  });
}

template void to_device_words(std::span<const ec::Affine<ec::G1Curve>>, AffineWords<ec::G1Curve>*);
template void to_device_words(std::span<const ec::Affine<ec::G2Curve>>, AffineWords<ec::G2Curve>*);
template void gather_device_words(std::span<const ec::Affine<ec::G1Curve>>, std::span<const std::uint32_t>,
                                  AffineWords<ec::G1Curve>*);
template void gather_device_words(std::span<const ec::Affine<ec::G2Curve>>, std::span<const std::uint32_t>,
                                  AffineWords<ec::G2Curve>*);

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

unsigned DeviceMsm::window_bits_for(std::size_t n, unsigned widest_window) {
  // Fitted to H200 timings of random scalars at 2^16 … 2^26, by ⌈log2 n⌉ (an H
  // query of N − 1 points is sized like N): the best width grows by one per
  // doubling while the sort dominates, then by one per quadrupling, and from 2^24
  // the cheaper bucket reduction pays for 13 windows of 20 bits.
  const int lg = std::bit_width(std::max<std::size_t>(n, 2) - 1);
  const int c = lg <= 18 ? lg - 3 : lg <= 22 ? (lg + 14) / 2 : (lg + 16) / 2;
  return static_cast<unsigned>(std::clamp(c, 4, static_cast<int>(widest_window)));
}

template <class Curve>
unsigned DeviceMsm::default_window_bits(std::size_t n) {
  return window_bits_for(n, kWidestDefaultWindow<Curve>);
}

template unsigned DeviceMsm::default_window_bits<ec::G1Curve>(std::size_t);
template unsigned DeviceMsm::default_window_bits<ec::G2Curve>(std::size_t);

template <class Curve>
DeviceMsm::ScratchSizes DeviceMsm::scratch_needs(std::size_t n, std::size_t sorted_terms) {
  // The sort and the buckets hold one slice of the general terms; the indices, all n.
  const std::size_t sorted = std::min(n, sorted_terms);
  const msm_shape::ScratchCounts k = msm_shape::scratch_counts(sorted, default_window_bits<Curve>(sorted));
  const std::size_t xyzz = 4 * sizeof(typename Curve::Field);
  const std::size_t entries = k.entries * sizeof(std::uint32_t);
  const std::size_t buckets = std::size_t{k.buckets} * sizeof(std::uint32_t);
  const std::size_t indices = (n + 1) * sizeof(std::uint32_t);
  // Chunks of split buckets: each such bucket exceeds the chunk length, at least 4×
  // the mean, so they number at most 2·entries/chunk_len ≤ buckets / 2.
  const std::size_t partials = (std::size_t{k.buckets} / 2 + 1) * xyzz;
  return {entries, entries, entries, entries,  // keys and values, twice: the sort's two buffers
          std::size_t{1} << 20,                // the sort's histograms
          buckets, buckets, buckets, buckets, buckets, buckets, buckets, buckets,  // bounds, orders, chunk counts
          std::size_t{k.buckets} * xyzz, partials, k.reduce_points() * xyzz,      // sums
          2 * indices,                                                            // the general terms' and the ones'
          std::size_t{msm_shape::kOnesThreads} * xyzz};
}

DeviceMsm::ScratchSizes DeviceMsm::held_scratch() const {
  constexpr std::size_t u = sizeof(std::uint32_t);
  return {keys_.capacity() * u,         values_.capacity() * u,      sorted_keys_.capacity() * u,
          sorted_values_.capacity() * u, sort_temp_.capacity(),       bucket_start_.capacity() * u,
          bucket_end_.capacity() * u,    bucket_order_.capacity() * u, bucket_sizes_.capacity() * u,
          sorted_order_.capacity() * u,  sorted_sizes_.capacity() * u, chunk_counts_.capacity() * u,
          chunk_end_.capacity() * u,     buckets_.capacity(),          partials_.capacity(),
          segments_.capacity(),          std::min(terms_.capacity(), ones_.capacity()) * 2 * u,
          ones_partial_.capacity()};
}

template <class Curve>
std::size_t DeviceMsm::scratch_bytes(std::size_t n, std::size_t sorted_terms) {
  const ScratchSizes need = scratch_needs<Curve>(n, sorted_terms);
  return std::accumulate(need.begin(), need.end(), std::size_t{0});
}

template <class Curve>
std::size_t DeviceMsm::scratch_growth(std::size_t n, std::size_t sorted_terms) const {
  const ScratchSizes need = scratch_needs<Curve>(n, sorted_terms);
  const ScratchSizes held = held_scratch();
  std::size_t growth = 0;
  for (std::size_t i = 0; i < need.size(); ++i) growth += need[i] > held[i] ? need[i] - held[i] : 0;
  return growth;
}

std::size_t DeviceMsm::scratch_held_bytes() const {
  const ScratchSizes held = held_scratch();
  return std::accumulate(held.begin(), held.end(), std::size_t{0});
}

template std::size_t DeviceMsm::scratch_bytes<ec::G1Curve>(std::size_t, std::size_t);
template std::size_t DeviceMsm::scratch_bytes<ec::G2Curve>(std::size_t, std::size_t);
template std::size_t DeviceMsm::scratch_growth<ec::G1Curve>(std::size_t, std::size_t) const;
template std::size_t DeviceMsm::scratch_growth<ec::G2Curve>(std::size_t, std::size_t) const;

}  // namespace zkpipe::gpu
