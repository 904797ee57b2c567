// MSM over bases kept in host memory, for parameter sets larger than the device:
// Σ scalars[i]·bases[i] is one DeviceMsm sum in parts, a part per chunk of points
// (the buckets stay on the device between chunks; they are reduced once). Only
// the terms whose scalars are not zero are sent (a bitmap of them comes back from
// the device first; a Filecoin witness is about half zeros): a chunk is a run of
// those terms, its bases gathered on the host and its indices sent beside them, and
// the device gathers the chunk's scalars by those indices. When no scalar is zero
// the chunks are runs of consecutive points, sent without indices. The chunks go
// through two device buffers: while the device sums chunk k from one, a host thread
// converts chunk k + 1 into pinned staging and the copy engine moves it into the
// other, on a stream of its own; an event orders the chunk's MSM after its copy.
// The result is the same point as one resident sum.
//
// With the bases already in the device's layout in page-locked memory
// (PinnedPoints), a chunk is a run of consecutive points that the copy engine moves
// alone, at the link's speed, while no host thread is busy: zero terms cross the
// link too, and the device's MSM drops them as a resident sum does. Sending only the
// non-zero terms would halve a Filecoin witness's L and A bytes but needs host
// threads to gather them, which synthesis competes for.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "ec/curves.hpp"
#include "ec/jacobian.hpp"
#include "ff/fr.hpp"
#include "gpu/msm.hpp"
#include "gpu/nonzero_terms.hpp"
#include "gpu/pinned_points.hpp"
#include "gpu/staging.hpp"

namespace zkpipe::gpu {

// Device memory to leave free beyond such estimates, given the free bytes (or what
// is left of a device-memory budget): CUB's sort storage and the allocator's
// rounding differ from them, and other users of the device allocate later. 1 GiB +
// 10 % from 8 GiB up; below, an eighth + 10 %, so that a small budget still
// leaves room for chunks larger than the smallest.
std::size_t device_memory_margin(std::size_t free_bytes);

template <class Curve>
class StreamedMsm {
 public:
  // The smallest chunk picked from free memory: below this the per-chunk overhead
  // (window sums read back, Horner on the host) dominates; if even this does not fit,
  // the allocation says so.
  static constexpr std::size_t kMinChunkPoints = std::size_t{1} << 16;

  // chunk_points: points per chunk; 0 picks, at each sum, the largest chunk whose
  // two buffers and MSM scratch fit in the free device memory (less a margin).
  // Streams and events belong to the device current at construction.
  explicit StreamedMsm(std::size_t chunk_points = 0);
  // The chunk buffers and their staging charge `ledger`.
  explicit StreamedMsm(memory::BufferLedger& ledger, std::size_t chunk_points = 0);
  StreamedMsm(const StreamedMsm&) = delete;
  StreamedMsm& operator=(const StreamedMsm&) = delete;
  ~StreamedMsm();

  // Σ scalars[i]·bases[i] for i < n, like DeviceMsm::sum but with bases in host
  // memory; scalars is a device pointer to n Montgomery Fr values, n ≤ bases.size().
  // The chunk MSMs run on stream, in msm (whose scratch is sized by the chunk, not
  // by n); call with the construction's device current. Returns once every chunk
  // is summed.
  ec::Jacobian<Curve> sum(DeviceMsm& msm, std::span<const ec::Affine<Curve>> bases, const ff::Fr* scalars,
                          std::size_t n, cudaStream_t stream, unsigned window_bits = 0);

  // The same sum from bases in page-locked memory, copied chunk by chunk as they are.
  ec::Jacobian<Curve> sum(DeviceMsm& msm, const PinnedPoints<Curve>& bases, const ff::Fr* scalars, std::size_t n,
                          cudaStream_t stream, unsigned window_bits = 0);

  // Points per chunk for a sum of n terms (at most n).
  std::size_t chunk_points(std::size_t n) const;

  // At most `bytes` of device memory for the chunk buffers and the MSM's scratch of
  // a chunk (what device_bytes_for counts) in the sums from now on, instead of what
  // is free less a margin; 0 lifts it. For sums that run beside others on the
  // device, which divide its memory between them beforehand: each sizing its chunks
  // from what is free would take what the other is about to allocate.
  void limit_device_bytes(std::size_t bytes) { device_limit_ = bytes; }

  // The device memory a sum in chunks of `points` points holds: the chunk buffers,
  // their indices, the gathered scalars and the MSM's scratch (estimated) for a chunk.
  static std::size_t device_bytes_for(std::size_t points);

  // Device memory held by the chunk buffers, their indices, the gathered scalars and
  // the bitmap, in bytes.
  std::size_t device_bytes() const {
    return (chunks_[0].capacity() + chunks_[1].capacity()) * sizeof(AffineWords<Curve>) +
           (indices_[0].capacity() + indices_[1].capacity() + bitmap_.capacity()) * sizeof(std::uint32_t) +
           gathered_.capacity() * sizeof(ff::Fr);
  }

  // What the last sum sent over the link: its points (and their indices), in bytes,
  // and how many of its terms were zero and so never sent (none from PinnedPoints).
  std::size_t last_sent_bytes() const { return last_sent_bytes_; }
  std::size_t last_zero_terms() const { return last_zero_terms_; }

 private:
  // The first `buffers` chunk buffers hold at least `points` points each (one
  // suffices when the sum is a single chunk), with room for their indices when sparse.
  void reserve(std::size_t points, int buffers, bool sparse);
  // The non-zero scalars among the first n: their count, and their ascending
  // indices unless none is zero.
  SetBits nonzero_terms(const ff::Fr* scalars, std::size_t n, cudaStream_t stream);
  // Host thread side: terms [first, first + count) into buffer `slot` on the copy
  // stream — the points of those terms (terms[first + j], or first + j when terms is
  // empty) and, when sparse, their indices — then records uploaded_[slot].
  void upload(std::span<const ec::Affine<Curve>> bases, std::span<const std::uint32_t> terms, std::size_t first,
              std::size_t count, int slot);

  std::size_t chunk_points_;
  std::size_t device_limit_ = 0;  // limit_device_bytes; 0: none
  memory::BufferLedger* ledger_;
  int device_ = 0;
  cudaStream_t copy_stream_ = nullptr;
  PinnedStaging staging_;
  DeviceBuffer<AffineWords<Curve>> chunks_[2];
  DeviceBuffer<std::uint32_t> indices_[2];  // the chunk's term indices, when sparse
  DeviceBuffer<ff::Fr> gathered_;           // the chunk's scalars, gathered by them
  DeviceBuffer<std::uint32_t> bitmap_;      // non-zero scalars
  PinnedBuffer<std::uint32_t> host_bitmap_;
  CudaEvent uploaded_[2];
  std::size_t last_sent_bytes_ = 0;
  std::size_t last_zero_terms_ = 0;
};

using StreamedG1Msm = StreamedMsm<ec::G1Curve>;
using StreamedG2Msm = StreamedMsm<ec::G2Curve>;
extern template class StreamedMsm<ec::G1Curve>;
extern template class StreamedMsm<ec::G2Curve>;

}  // namespace zkpipe::gpu
