#include "gpu/msm_streamed.hpp"

#include <algorithm>
#include <future>
#include <stdexcept>

#include "gpu/cuda_error.hpp"
#include "gpu/device_memory.hpp"

namespace zkpipe::gpu {

std::size_t device_memory_margin(std::size_t free_bytes) {
  return std::min(std::size_t{1} << 30, free_bytes / 8) + free_bytes / 10;
}

template <class Curve>
StreamedMsm<Curve>::StreamedMsm(std::size_t chunk_points) : StreamedMsm(memory::BufferLedger::process(), chunk_points) {}

template <class Curve>
StreamedMsm<Curve>::StreamedMsm(memory::BufferLedger& ledger, std::size_t chunk_points)
    : chunk_points_(chunk_points),
      ledger_(&ledger),
      staging_(ledger),
      chunks_{DeviceBuffer<AffineWords<Curve>>(ledger), DeviceBuffer<AffineWords<Curve>>(ledger)},
      indices_{DeviceBuffer<std::uint32_t>(ledger), DeviceBuffer<std::uint32_t>(ledger)},
      gathered_(ledger),
      bitmap_(ledger),
      host_bitmap_(ledger) {
  check(cudaGetDevice(&device_), "cudaGetDevice");
  // Non-blocking: the copies must not wait for work on the legacy default stream.
  check(cudaStreamCreateWithFlags(&copy_stream_, cudaStreamNonBlocking), "cudaStreamCreate");
}

template <class Curve>
StreamedMsm<Curve>::~StreamedMsm() {
  cudaStreamDestroy(copy_stream_);
}

template <class Curve>
std::size_t StreamedMsm<Curve>::device_bytes_for(std::size_t points) {
  return 2 * points * (sizeof(AffineWords<Curve>) + sizeof(std::uint32_t)) + points * sizeof(ff::Fr) +
         DeviceMsm::scratch_bytes<Curve>(points);
}

template <class Curve>
std::size_t StreamedMsm<Curve>::chunk_points(std::size_t n) const {
  if (n == 0) return 0;
  if (chunk_points_ != 0) return std::min(chunk_points_, n);
  std::size_t budget = device_limit_;
  if (budget == 0) {
    const std::size_t free_bytes = available_device_bytes(*ledger_, device_);
    // The chunk buffers already held are reused, so they count as available.
    const std::size_t available = free_bytes + device_bytes();
    const std::size_t margin = device_memory_margin(free_bytes);
    budget = available > margin ? available - margin : 0;
  }
  const auto fits = [&](std::size_t m) { return device_bytes_for(m) <= budget; };
  // The largest fitting chunk up to n: the need grows with m (near enough for a
  // bisection: the window width steps up slowly with m).
  std::size_t lo = 0;
  std::size_t hi = n;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return std::max(lo, std::min(n, kMinChunkPoints));
}

template <class Curve>
void StreamedMsm<Curve>::reserve(std::size_t points, int buffers, bool sparse) {
  for (int slot = 0; slot < buffers; ++slot) {
    chunks_[slot].reserve(points);
    if (sparse) indices_[slot].reserve(points);
  }
  if (sparse) gathered_.reserve(points);
}

template <class Curve>
SetBits StreamedMsm<Curve>::nonzero_terms(const ff::Fr* scalars, std::size_t n, cudaStream_t stream) {
  const std::size_t words = (n + 31) / 32;
  bitmap_.reserve(words);
  host_bitmap_.reserve(words);
  nonzero_bitmap(scalars, n, bitmap_.data(), stream);
  check(cudaMemcpyAsync(host_bitmap_.data(), bitmap_.data(), words * sizeof(std::uint32_t), cudaMemcpyDeviceToHost,
                        stream),
        "copy the non-zero bitmap");
  check(cudaStreamSynchronize(stream), "non-zero bitmap");
  return set_bits(std::span<const std::uint32_t>(host_bitmap_.data(), words), n);
}

template <class Curve>
void StreamedMsm<Curve>::upload(std::span<const ec::Affine<Curve>> bases, std::span<const std::uint32_t> terms,
                                std::size_t first, std::size_t count, int slot) {
  // Refilled only while no MSM reads the buffer: the previous sum from this slot
  // has returned, so its stream is past every read.
  if (terms.empty()) {
    staging_.upload(chunks_[slot].data(), count, copy_stream_,
                    [&](std::size_t at, std::size_t m, AffineWords<Curve>* out) {
                      to_device_words(bases.subspan(first + at, m), out);
                    });
  } else {
    const std::span<const std::uint32_t> chunk_terms = terms.subspan(first, count);
    staging_.upload(chunks_[slot].data(), count, copy_stream_,
                    [&](std::size_t at, std::size_t m, AffineWords<Curve>* out) {
                      gather_device_words(bases, chunk_terms.subspan(at, m), out);
                    });
    staging_.upload(indices_[slot].data(), chunk_terms, copy_stream_);
  }
  check(cudaEventRecord(uploaded_[slot].get(), copy_stream_), "record chunk upload");
}

template <class Curve>
ec::Jacobian<Curve> StreamedMsm<Curve>::sum(DeviceMsm& msm, std::span<const ec::Affine<Curve>> bases,
                                            const ff::Fr* scalars, std::size_t n, cudaStream_t stream,
                                            unsigned window_bits) {
  using Jacobian = ec::Jacobian<Curve>;
  if (n > bases.size()) throw std::invalid_argument("StreamedMsm: more scalars than bases");
  last_sent_bytes_ = 0;
  last_zero_terms_ = 0;
  if (n == 0) return Jacobian::identity();
  if (n >= (std::size_t{1} << 32)) throw std::invalid_argument("StreamedMsm: too many terms");
  const SetBits nonzero = nonzero_terms(scalars, n, stream);
  const std::size_t sent = nonzero.count;
  last_zero_terms_ = n - sent;
  if (sent == 0) return Jacobian::identity();
  // No zeros: consecutive runs, no indices to send or scalars to gather.
  const bool sparse = sent < n;
  const std::size_t chunk = chunk_points(sent);
  const std::size_t chunks = (sent + chunk - 1) / chunk;
  const auto count_of = [&](std::size_t k) { return std::min(chunk, sent - k * chunk); };
  reserve(chunk, chunks > 1 ? 2 : 1, sparse);
  last_sent_bytes_ = sent * (sizeof(AffineWords<Curve>) + (sparse ? sizeof(std::uint32_t) : 0));

  const std::span<const std::uint32_t> term_span(nonzero.indices);
  upload(bases, term_span, 0, count_of(0), 0);
  msm.begin_parts<Curve>(window_bits);
  for (std::size_t k = 0; k < chunks; ++k) {
    const int slot = static_cast<int>(k % 2);
    // Chunk k + 1 goes into the other buffer, whose last reader (the sum of chunk
    // k − 1) has returned. The future's destructor waits for the thread, so an
    // exception from the sum below cannot free buffers it still writes.
    std::future<void> next;
    if (k + 1 < chunks) {
      next = std::async(std::launch::async, [this, bases, term_span, first = (k + 1) * chunk, count = count_of(k + 1),
                                             slot] {
        check(cudaSetDevice(device_), "cudaSetDevice");
        upload(bases, term_span, first, count, 1 - slot);
      });
    }
    check(cudaStreamWaitEvent(stream, uploaded_[slot].get()), "wait for chunk upload");
    const ff::Fr* chunk_scalars = scalars + k * chunk;
    if (sparse) {
      gather_scalars(scalars, indices_[slot].data(), count_of(k), gathered_.data(), stream);
      chunk_scalars = gathered_.data();
    }
    msm.add_part(DeviceBasesView<Curve>(chunks_[slot].data(), count_of(k)), chunk_scalars, count_of(k), stream);
    if (next.valid()) next.get();
  }
  return msm.end_parts<Curve>(stream);
}

template <class Curve>
ec::Jacobian<Curve> StreamedMsm<Curve>::sum(DeviceMsm& msm, const PinnedPoints<Curve>& bases, const ff::Fr* scalars,
                                            std::size_t n, cudaStream_t stream, unsigned window_bits) {
  using Jacobian = ec::Jacobian<Curve>;
  if (n > bases.size()) throw std::invalid_argument("StreamedMsm: more scalars than bases");
  last_sent_bytes_ = 0;
  last_zero_terms_ = 0;
  if (n == 0) return Jacobian::identity();
  const std::size_t chunk = chunk_points(n);
  const std::size_t chunks = (n + chunk - 1) / chunk;
  const auto count_of = [&](std::size_t k) { return std::min(chunk, n - k * chunk); };
  reserve(chunk, chunks > 1 ? 2 : 1, false);
  last_sent_bytes_ = n * sizeof(AffineWords<Curve>);
  const AffineWords<Curve>* host = bases.span().data();
  const auto upload = [&](std::size_t k) {
    const int slot = static_cast<int>(k % 2);
    check(cudaMemcpyAsync(chunks_[slot].data(), host + k * chunk, count_of(k) * sizeof(AffineWords<Curve>),
                          cudaMemcpyHostToDevice, copy_stream_),
          "copy a pinned chunk");
    check(cudaEventRecord(uploaded_[slot].get(), copy_stream_), "record chunk upload");
  };
  upload(0);
  msm.begin_parts<Curve>(window_bits);
  for (std::size_t k = 0; k < chunks; ++k) {
    const int slot = static_cast<int>(k % 2);
    // Chunk k + 1 goes into the other buffer, whose last reader (the part of chunk
    // k − 1) has returned.
    if (k + 1 < chunks) upload(k + 1);
    check(cudaStreamWaitEvent(stream, uploaded_[slot].get()), "wait for chunk upload");
    msm.add_part(DeviceBasesView<Curve>(chunks_[slot].data(), count_of(k)), scalars + k * chunk, count_of(k), stream);
  }
  return msm.end_parts<Curve>(stream);
}

template class StreamedMsm<ec::G1Curve>;
template class StreamedMsm<ec::G2Curve>;

}  // namespace zkpipe::gpu
