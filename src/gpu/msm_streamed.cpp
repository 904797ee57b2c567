#include "gpu/msm_streamed.hpp"

#include <algorithm>
#include <future>
#include <stdexcept>
#include <utility>

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
  // A prefetch may still be copying into a buffer freed below.
  cudaStreamSynchronize(copy_stream_);
  cudaStreamDestroy(copy_stream_);
}

template <class Curve>
typename StreamedMsm<Curve>::ChunkShape StreamedMsm<Curve>::chunk_shape(const DeviceMsm& msm, std::size_t n,
                                                                        std::size_t general, bool sparse) const {
  if (n == 0) return {};
  if (chunk_points_ != 0) return {std::min(chunk_points_, n), 0};
  // A chunk of m points holds about m·general/n general terms; a quarter more and
  // 2^16 allow for an uneven spread.
  const auto sorted_terms = [&](std::size_t m) {
    if (general >= n) return m;
    const auto share = static_cast<std::size_t>(static_cast<double>(m) * static_cast<double>(general) / n * 1.25);
    return std::min(m, share + (std::size_t{1} << 16));
  };
  const std::size_t free_bytes = available_device_bytes(*ledger_, device_);
  const std::size_t margin = device_memory_margin(free_bytes);
  const std::size_t budget = free_bytes > margin ? free_bytes - margin : 0;
  const auto growth = [](std::size_t need, std::size_t held) { return need > held ? need - held : 0; };
  // Two buffers of points (and indices), the gathered scalars and the sum's scratch.
  const auto fits = [&](std::size_t m) {
    std::size_t grown = msm.scratch_growth<Curve>(m, sorted_terms(m));
    for (int slot = 0; slot < 2; ++slot) {
      grown += growth(m * sizeof(AffineWords<Curve>), chunks_[slot].capacity() * sizeof(AffineWords<Curve>));
      if (sparse) grown += growth(m * sizeof(std::uint32_t), indices_[slot].capacity() * sizeof(std::uint32_t));
    }
    if (sparse) grown += growth(m * sizeof(ff::Fr), gathered_.capacity() * sizeof(ff::Fr));
    return grown <= budget;
  };
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
  const std::size_t points = std::max(lo, std::min(n, kMinChunkPoints));
  return {points, general >= n ? 0 : sorted_terms(points)};
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
  take_prefetch(nullptr, 0);  // its buffer is refilled below
  if (n == 0) return Jacobian::identity();
  if (n >= (std::size_t{1} << 32)) throw std::invalid_argument("StreamedMsm: too many terms");
  const SetBits nonzero = nonzero_terms(scalars, n, stream);
  const std::size_t sent = nonzero.count;
  last_zero_terms_ = n - sent;
  if (sent == 0) return Jacobian::identity();
  // No zeros: consecutive runs, no indices to send or scalars to gather.
  const bool sparse = sent < n;
  const ChunkShape shape = chunk_shape(msm, sent, msm.count_general_terms(scalars, n, stream), sparse);
  const std::size_t chunk = shape.points;
  const std::size_t chunks = (sent + chunk - 1) / chunk;
  const auto count_of = [&](std::size_t k) { return std::min(chunk, sent - k * chunk); };
  reserve(chunk, chunks > 1 ? 2 : 1, sparse);
  last_sent_bytes_ = sent * (sizeof(AffineWords<Curve>) + (sparse ? sizeof(std::uint32_t) : 0));

  const std::span<const std::uint32_t> term_span(nonzero.indices);
  upload(bases, term_span, 0, count_of(0), 0);
  Jacobian acc = Jacobian::identity();
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
    acc = acc + msm.sum(DeviceBasesView<Curve>(chunks_[slot].data(), count_of(k)), chunk_scalars, count_of(k), stream,
                        window_bits, shape.sorted_terms);
    if (next.valid()) next.get();
  }
  return acc;
}

template <class Curve>
void StreamedMsm<Curve>::copy_chunk(const AffineWords<Curve>* source, std::size_t first, std::size_t count, int slot) {
  chunks_[slot].reserve(count);
  check(cudaMemcpyAsync(chunks_[slot].data(), source + first, count * sizeof(AffineWords<Curve>),
                        cudaMemcpyHostToDevice, copy_stream_),
        "copy a pinned chunk");
  check(cudaEventRecord(uploaded_[slot].get(), copy_stream_), "record chunk upload");
}

template <class Curve>
void StreamedMsm<Curve>::prefetch_into(int slot, const AffineWords<Curve>* source, std::size_t n) {
  const std::size_t points = std::min(n, chunks_[slot].capacity());
  if (points == 0) return;
  copy_chunk(source, 0, points, slot);
  prefetched_ = Prefetched{source, points, slot};
}

template <class Curve>
void StreamedMsm<Curve>::prefetch(const DeviceMsm& msm, const PinnedPoints<Curve>& bases, std::size_t n) {
  if (n > bases.size()) throw std::invalid_argument("StreamedMsm: prefetch of more points than the bases hold");
  take_prefetch(nullptr, 0);
  // No sum is in flight: the larger buffer takes the most, but no more than a chunk
  // of general terms (a sum uses no more of it).
  const std::size_t points = std::min(n, chunk_shape(msm, n, n, false).points);
  prefetch_into(chunks_[1].capacity() > chunks_[0].capacity() ? 1 : 0, bases.span().data(), points);
}

template <class Curve>
std::optional<typename StreamedMsm<Curve>::Prefetched> StreamedMsm<Curve>::take_prefetch(
    const AffineWords<Curve>* source, std::size_t n) {
  std::optional<Prefetched> taken = std::exchange(prefetched_, std::nullopt);
  if (taken && source != nullptr && taken->source == source && n > 0) {
    taken->points = std::min(taken->points, n);
    return taken;
  }
  if (taken) check(cudaStreamSynchronize(copy_stream_), "drop a prefetched chunk");
  return std::nullopt;
}

template <class Curve>
ec::Jacobian<Curve> StreamedMsm<Curve>::sum(DeviceMsm& msm, const PinnedPoints<Curve>& bases, const ff::Fr* scalars,
                                            std::size_t n, cudaStream_t stream, unsigned window_bits,
                                            const PinnedPoints<Curve>* next, std::size_t next_n) {
  using Jacobian = ec::Jacobian<Curve>;
  if (n > bases.size()) throw std::invalid_argument("StreamedMsm: more scalars than bases");
  if (next != nullptr && next_n > next->size()) {
    throw std::invalid_argument("StreamedMsm: a next sum of more points than its bases hold");
  }
  last_sent_bytes_ = 0;
  last_zero_terms_ = 0;
  const AffineWords<Curve>* host = bases.span().data();
  const std::optional<Prefetched> ready = take_prefetch(host, n);
  if (n == 0) return Jacobian::identity();
  const ChunkShape shape = chunk_shape(msm, n, msm.count_general_terms(scalars, n, stream), false);
  last_sent_bytes_ = n * sizeof(AffineWords<Curve>);
  // The first chunk may be the prefetched one, of its own length but never longer
  // than the shape's (its sum's scratch is sized for those); the rest are of the
  // shape's.
  std::size_t first = 0;
  std::size_t count = ready ? std::min(ready->points, shape.points) : std::min(shape.points, n);
  int slot = ready ? ready->slot : 0;
  if (!ready) copy_chunk(host, 0, count, slot);
  Jacobian acc = Jacobian::identity();
  while (count > 0) {
    // The other buffer's last reader (the sum of the chunk before) has returned: it
    // takes this sum's next chunk or, after the last, the next sum's first points.
    const std::size_t following = first + count;
    const std::size_t following_count = std::min(shape.points, n - following);
    if (following_count > 0) {
      copy_chunk(host, following, following_count, 1 - slot);
    } else if (next != nullptr) {
      prefetch_into(1 - slot, next->span().data(), next_n);
    }
    check(cudaStreamWaitEvent(stream, uploaded_[slot].get()), "wait for chunk upload");
    acc = acc + msm.sum(DeviceBasesView<Curve>(chunks_[slot].data(), count), scalars + first, count, stream,
                        window_bits, shape.sorted_terms);
    first = following;
    count = following_count;
    slot = 1 - slot;
  }
  return acc;
}

template class StreamedMsm<ec::G1Curve>;
template class StreamedMsm<ec::G2Curve>;

}  // namespace zkpipe::gpu
