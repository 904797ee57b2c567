// G1 and G2 multi-scalar multiplication on the device (Pippenger), equal as a
// point to ec::msm for the same inputs; one set of kernels, templated on the point
// type (coordinates in Fp or Fp2).
//
//   0. select: CUB picks the indices of the scalars other than 0 and 1 (the terms
//      through the buckets; their count sets the window width c) and of the 1s.
//   1. digits: each selected scalar, out of Montgomery form, is cut into signed
//      c-bit digits |d| ≤ 2^(c−1).
//   2. sort: (window, |d|) keys with (point index, sign) values, CUB radix sort.
//   3. buckets: one thread per chunk of a bucket's points adds them (XYZZ, mixed
//      additions), chunks at most max(4× the mean bucket, √ the largest) long, so a
//      digit repeated across many terms does not leave one thread adding them all;
//      a bucket of several chunks then sums its chunks. Buckets go largest first (a
//      second, small sort by bucket size), so the threads of a warp finish together.
//   4. reduction: Σ_d d·bucket_d per window from running sums over segments of
//      buckets in parallel (a weighted and a plain sum each), the plain sums
//      reduced the same way one level up, then pairwise trees over the segments.
//   5. the points of scalar 1 are one more bucket, summed in chunks by step 3's
//      kernel (its one instantiation), then a tree.
//   6. the host combines the window sums by doubling (Horner) and adds the 1s.
// A sum in parts (begin_parts, add_part, end_parts) runs steps 0–3 and the ones'
// additions per part, into buckets and partials kept between parts, and steps 4–6
// once (and once more for each part that needs a wider window than the buckets').
// Scratch memory stays allocated in the DeviceMsm and is reused by later calls.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <span>
#include <type_traits>
#include <vector>

#include "ec/affine.hpp"
#include "ec/curves.hpp"
#include "ec/jacobian.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm_shape.hpp"
#include "gpu/staging.hpp"

namespace zkpipe::gpu {

struct MsmSchedule;  // msm_schedule.cuh

// The device layout of an affine point: x, y in Montgomery form; (0, 0) is the
// point at infinity.
template <class Curve>
struct AffineWords {
  typename Curve::Field x;
  typename Curve::Field y;
};

using G1AffineWords = AffineWords<ec::G1Curve>;
using G2AffineWords = AffineWords<ec::G2Curve>;

// Host points into the device layout ((0, 0) for infinity), on the host's threads:
// out[i] for points[i].
template <class Curve>
void to_device_words(std::span<const ec::Affine<Curve>> points, AffineWords<Curve>* out);
// The same for the points at `indices`: out[j] for points[indices[j]].
template <class Curve>
void gather_device_words(std::span<const ec::Affine<Curve>> points, std::span<const std::uint32_t> indices,
                         AffineWords<Curve>* out);

// Points of one group on the device, not owned: what an MSM reads. Lets the
// caller own the memory (StreamedMsm's refilled chunk buffers).
template <class Curve>
class DeviceBasesView {
 public:
  DeviceBasesView(const AffineWords<Curve>* data, std::size_t size) : data_(data), size_(size) {}
  const AffineWords<Curve>* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  const AffineWords<Curve>* data_;
  std::size_t size_;
};

// Points of one group resident on the device.
template <class Curve>
class DeviceBases {
 public:
  DeviceBases() = default;
  // The points' device memory charges `ledger`.
  DeviceBases(std::span<const ec::Affine<Curve>> points, PinnedStaging& staging, cudaStream_t stream,
              memory::BufferLedger& ledger = memory::BufferLedger::process());
  // size points, not initialized: for a producer on the device (DeviceFixedBase).
  explicit DeviceBases(std::size_t size, memory::BufferLedger& ledger = memory::BufferLedger::process());

  std::size_t size() const { return size_; }
  const AffineWords<Curve>* data() const { return points_.data(); }
  AffineWords<Curve>* data() { return points_.data(); }
  // The points in host form, after the work queued on stream.
  std::vector<ec::Affine<Curve>> download(cudaStream_t stream) const;
  std::size_t bytes() const { return size_ * sizeof(AffineWords<Curve>); }
  operator DeviceBasesView<Curve>() const { return {points_.data(), size_}; }  // NOLINT: MSMs take views

 private:
  DeviceBuffer<AffineWords<Curve>> points_;
  std::size_t size_ = 0;
};

using DeviceG1Bases = DeviceBases<ec::G1Curve>;
using DeviceG2Bases = DeviceBases<ec::G2Curve>;
extern template class DeviceBases<ec::G1Curve>;
extern template class DeviceBases<ec::G2Curve>;

// Milliseconds per phase of the last sum (CUDA events), when phase timing is on;
// for a sum in parts, digits to accumulate are its last part's.
struct MsmPhaseTimes {
  float digits = 0;
  float sort = 0;
  float order = 0;  // bucket bounds and the largest-first bucket order
  float accumulate = 0;
  float reduce = 0;
  float ones = 0;  // the scalar-1 points' additions (the last part's) and their tree
};

// The kernels are split by what they depend on, so each is compiled once: the
// schedule (steps 0–2 and the bucket order, the same for every curve) in
// msm_schedule.cu, the point kernels (steps 3–6) per curve in msm_g1.cu and
// msm_g2.cu, the host parts in msm.cpp.
class DeviceMsm {
 public:
  DeviceMsm() = default;
  // The scratch charges `ledger`.
  explicit DeviceMsm(memory::BufferLedger& ledger) : ledger_(&ledger) {}

  // Σ scalars[i]·bases[i] for i < n; scalars is a device pointer to n Montgomery
  // Fr values, n ≤ bases.size(). window_bits 0 picks a width from n. Synchronizes
  // with stream before returning.
  ec::Jacobian<ec::G1Curve> sum(DeviceBasesView<ec::G1Curve> bases, const ff::Fr* scalars, std::size_t n,
                                cudaStream_t stream, unsigned window_bits = 0);
  ec::Jacobian<ec::G2Curve> sum(DeviceBasesView<ec::G2Curve> bases, const ff::Fr* scalars, std::size_t n,
                                cudaStream_t stream, unsigned window_bits = 0);

  // A sum in parts, for bases that reach the device a chunk at a time (StreamedMsm):
  // begin_parts, add_part for each chunk of terms, then end_parts for the sum of
  // all. The buckets and the ones' partial sums stay on the device from part to
  // part, so the bucket reduction, the ones' tree and the host's combination run
  // once, at the end: a part costs its sort and its additions, and many small parts
  // cost little more than one large one. The window is window_bits for every part;
  // with 0, each part takes the buckets' window while it has no more windows than
  // the width sum() would pick for that part alone (so no part sorts more entries
  // than its own sum would), and a part that needs a wider one first reduces the
  // buckets into a partial result (at most once per width). One sum in parts at a
  // time per DeviceMsm, and no sum() between its begin_parts and end_parts.
  // add_part synchronizes with stream before returning, like sum(); end_parts does too.
  template <class Curve>
  void begin_parts(unsigned window_bits = 0);
  template <class Curve>
  void add_part(DeviceBasesView<Curve> bases, const ff::Fr* scalars, std::size_t n, cudaStream_t stream);
  template <class Curve>
  ec::Jacobian<Curve> end_parts(cudaStream_t stream);

  // The window width sum() uses for n terms over Curve when given none.
  template <class Curve>
  static unsigned default_window_bits(std::size_t n);

  // Device scratch, in bytes, that a sum of n terms over Curve at the default window
  // reserves at most (the sort's own temporary storage estimated): for placement decisions,
  // which keep a margin.
  template <class Curve>
  static std::size_t scratch_bytes(std::size_t n);

  // Device memory its scratch holds now, in bytes.
  std::size_t device_bytes() const;

  // Records events between the phases of every later sum (a little overhead).
  void set_phase_timing(bool on);
  const MsmPhaseTimes& last_phases() const { return phases_; }

  // The widest window sum() takes (the reduction's scratch grows as 2^c), and the
  // widest it picks by itself: G2's reduction kernels hold fewer threads (its points
  // need every register), so its windows stop one bit narrower.
  static constexpr unsigned kMaxWindowBits = 24;
  template <class Curve>
  static constexpr unsigned kWidestDefaultWindow = std::is_same_v<Curve, ec::G2Curve> ? 19 : 20;

 private:
  // Steps 0–2 and the chunks of the buckets, queued on stream; window_bits 0 picks a
  // width from the general terms' count, at most widest_window; kept_window (the
  // buckets' of a sum in parts, 0 if none) instead when it has no more windows than
  // that width. Synchronizes.
  MsmSchedule schedule(const ff::Fr* scalars, std::size_t n, unsigned window_bits, unsigned kept_window,
                       unsigned widest_window, cudaStream_t stream);
  static unsigned window_bits_for(std::size_t n, unsigned widest_window);
  // Records phase event i on stream when phase timing is on.
  void mark_phase(int i, cudaStream_t stream);

  // The sum in parts under way: its curve, the window asked for (0: chosen per part),
  // whether any part has filled the buckets (the first that does writes every bucket;
  // later ones add to them) and at what shape, and the sums of buckets reduced early
  // when a part needed a wider window.
  struct Parts {
    bool open = false;
    bool g2 = false;
    unsigned window_bits = 0;
    bool buckets_filled = false;
    bool ones_added = false;
    msm_shape::ScratchCounts counts{};
    ec::Jacobian<ec::G1Curve> reduced_g1 = ec::Jacobian<ec::G1Curve>::identity();
    ec::Jacobian<ec::G2Curve> reduced_g2 = ec::Jacobian<ec::G2Curve>::identity();
  };
  template <class Curve>
  void check_parts_open(const char* what) const;
  template <class Curve>
  ec::Jacobian<Curve>& reduced_early() {
    if constexpr (std::is_same_v<Curve, ec::G1Curve>) {
      return parts_.reduced_g1;
    } else {
      return parts_.reduced_g2;
    }
  }
  // The buckets' Σ over windows (steps 4 and 6 without the ones), queued on stream and
  // combined on the host. Synchronizes.
  template <class Curve>
  ec::Jacobian<Curve> reduce_buckets(cudaStream_t stream);

  memory::BufferLedger* ledger_ = &memory::BufferLedger::process();
  // The sort's two pairs of buffers: the digits go into the first, the sort alternates
  // between them, and the sorted entries end in either (MsmSchedule::sorted_values).
  DeviceBuffer<std::uint32_t> keys_{*ledger_};
  DeviceBuffer<std::uint32_t> values_{*ledger_};
  DeviceBuffer<std::uint32_t> spare_keys_{*ledger_};
  DeviceBuffer<std::uint32_t> spare_values_{*ledger_};
  DeviceBuffer<std::byte> sort_temp_{*ledger_};
  DeviceBuffer<std::uint32_t> bucket_start_{*ledger_};
  DeviceBuffer<std::uint32_t> bucket_end_{*ledger_};
  // XYZZ points of either group, as bytes: the same scratch serves G1 and G2 sums.
  DeviceBuffer<std::byte> buckets_{*ledger_};
  DeviceBuffer<std::byte> segments_{*ledger_};
  DeviceBuffer<std::uint32_t> terms_{*ledger_};  // indices of the terms through the buckets, count first
  DeviceBuffer<std::uint32_t> ones_{*ledger_};   // indices of scalar-1 terms, count first
  DeviceBuffer<std::byte> ones_partial_{*ledger_};
  DeviceBuffer<std::uint32_t> ones_bucket_{*ledger_};  // the ones as one bucket: start, end, order, chunk end
  DeviceBuffer<std::uint32_t> bucket_order_{*ledger_};
  DeviceBuffer<std::uint32_t> bucket_sizes_{*ledger_};
  DeviceBuffer<std::uint32_t> sorted_order_{*ledger_};
  DeviceBuffer<std::uint32_t> sorted_sizes_{*ledger_};
  DeviceBuffer<std::uint32_t> chunk_counts_{*ledger_};  // per bucket, largest first
  DeviceBuffer<std::uint32_t> chunk_end_{*ledger_};
  DeviceBuffer<std::uint32_t> chunk_totals_{*ledger_};
  DeviceBuffer<std::byte> partials_{*ledger_};  // sums of the chunks of split buckets
  static constexpr int kPhaseEvents = 8;
  std::deque<CudaEvent> phase_events_;  // empty unless phase timing is on
  MsmPhaseTimes phases_;
  Parts parts_;
};

}  // namespace zkpipe::gpu
