// The host side of the device MSM: bases in and out of the device layout, the
// window width and scratch estimates, phase timing. The kernels are in
// msm_schedule.cu and msm_points.cuh (msm_g1.cu, msm_g2.cu).
#include "gpu/msm.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/cuda_error.hpp"
#include "gpu/msm_shape.hpp"

namespace zkpipe::gpu {

std::size_t DeviceMsm::device_bytes() const {
  const auto bytes = [](const auto&... buffers) {
    return ((buffers.capacity() * sizeof(*buffers.data())) + ...);
  };
  return bytes(keys_, values_, spare_keys_, spare_values_, sort_temp_, bucket_start_, bucket_end_, buckets_, segments_,
               terms_, ones_, ones_partial_, ones_bucket_, bucket_order_, bucket_sizes_, sorted_order_, sorted_sizes_,
               chunk_counts_, chunk_end_, chunk_totals_, partials_);
}

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

template <class Curve>
void DeviceMsm::begin_parts(unsigned window_bits) {
  parts_ = Parts{};
  parts_.open = true;
  parts_.g2 = std::is_same_v<Curve, ec::G2Curve>;
  parts_.window_bits = window_bits;
}

template void DeviceMsm::begin_parts<ec::G1Curve>(unsigned);
template void DeviceMsm::begin_parts<ec::G2Curve>(unsigned);

template <class Curve>
void DeviceMsm::check_parts_open(const char* what) const {
  if (!parts_.open) throw std::logic_error(std::string("DeviceMsm::") + what + " without begin_parts");
  if (parts_.g2 != std::is_same_v<Curve, ec::G2Curve>) {
    throw std::logic_error(std::string("DeviceMsm::") + what + " on the other group than begin_parts'");
  }
}

template void DeviceMsm::check_parts_open<ec::G1Curve>(const char*) const;
template void DeviceMsm::check_parts_open<ec::G2Curve>(const char*) const;

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
std::size_t DeviceMsm::scratch_bytes(std::size_t n) {
  const msm_shape::ScratchCounts k = msm_shape::scratch_counts(n, default_window_bits<Curve>(n));
  const std::size_t xyzz = 4 * sizeof(typename Curve::Field);
  const std::size_t sort = k.entries * 4 * sizeof(std::uint32_t)  // keys and values, twice: the sort's two buffers
                           + (std::size_t{1} << 20);              // its histograms
  const std::size_t per_bucket = 8 * sizeof(std::uint32_t) + xyzz;  // bounds, order by size, chunk counts, sums
  // Chunks of split buckets: each such bucket exceeds the chunk length, at least 4×
  // the mean, so they number at most 2·entries/chunk_len ≤ buckets / 2.
  const std::size_t partials = (std::size_t{k.buckets} / 2 + 1) * xyzz;
  return sort + std::size_t{k.buckets} * per_bucket + partials + k.reduce_points() * xyzz +
         2 * (n + 1) * sizeof(std::uint32_t)  // the general terms' and the ones' indices
         + std::size_t{msm_shape::kOnesThreads} * xyzz;
}

template std::size_t DeviceMsm::scratch_bytes<ec::G1Curve>(std::size_t);
template std::size_t DeviceMsm::scratch_bytes<ec::G2Curve>(std::size_t);

}  // namespace zkpipe::gpu
