#include "gpu/msm_streamed.hpp"

#include <algorithm>
#include <future>
#include <stdexcept>

#include "gpu/cuda_error.hpp"
#include "gpu/device_memory.hpp"

namespace zkpipe::gpu {

std::size_t device_memory_margin(std::size_t free_bytes) { return (std::size_t{1} << 30) + free_bytes / 10; }

template <class Curve>
StreamedMsm<Curve>::StreamedMsm(std::size_t chunk_points) : StreamedMsm(memory::BufferLedger::process(), chunk_points) {}

template <class Curve>
StreamedMsm<Curve>::StreamedMsm(memory::BufferLedger& ledger, std::size_t chunk_points)
    : chunk_points_(chunk_points),
      ledger_(&ledger),
      staging_(ledger),
      chunks_{DeviceBuffer<AffineWords<Curve>>(ledger), DeviceBuffer<AffineWords<Curve>>(ledger)} {
  check(cudaGetDevice(&device_), "cudaGetDevice");
  // Non-blocking: the copies must not wait for work on the legacy default stream.
  check(cudaStreamCreateWithFlags(&copy_stream_, cudaStreamNonBlocking), "cudaStreamCreate");
}

template <class Curve>
StreamedMsm<Curve>::~StreamedMsm() {
  cudaStreamDestroy(copy_stream_);
}

template <class Curve>
std::size_t StreamedMsm<Curve>::chunk_points(std::size_t n) const {
  if (n == 0) return 0;
  if (chunk_points_ != 0) return std::min(chunk_points_, n);
  const std::size_t free_bytes = available_device_bytes(*ledger_, device_);
  // The chunk buffers already held are reused, so they count as available.
  const std::size_t available = free_bytes + device_bytes();
  const std::size_t margin = device_memory_margin(free_bytes);
  const std::size_t budget = available > margin ? available - margin : 0;
  const auto fits = [&](std::size_t m) {
    return 2 * m * sizeof(AffineWords<Curve>) + DeviceMsm::scratch_bytes<Curve>(m) <= budget;
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
  return std::max(lo, std::min(n, kMinChunkPoints));
}

template <class Curve>
void StreamedMsm<Curve>::reserve(std::size_t points, int buffers) {
  for (int slot = 0; slot < buffers; ++slot) chunks_[slot].reserve(points);
}

template <class Curve>
void StreamedMsm<Curve>::upload(std::span<const ec::Affine<Curve>> bases, std::size_t first, std::size_t count,
                                int slot) {
  // Refilled only while no MSM reads the buffer: the previous sum from this slot
  // has returned, so its stream is past every read.
  staging_.upload(chunks_[slot].data(), count, copy_stream_, [&](std::size_t at, std::size_t m, AffineWords<Curve>* out) {
    to_device_words(bases.subspan(first + at, m), out);
  });
  check(cudaEventRecord(uploaded_[slot].get(), copy_stream_), "record chunk upload");
}

template <class Curve>
ec::Jacobian<Curve> StreamedMsm<Curve>::sum(DeviceMsm& msm, std::span<const ec::Affine<Curve>> bases,
                                            const ff::Fr* scalars, std::size_t n, cudaStream_t stream,
                                            unsigned window_bits) {
  using Jacobian = ec::Jacobian<Curve>;
  if (n > bases.size()) throw std::invalid_argument("StreamedMsm: more scalars than bases");
  if (n == 0) return Jacobian::identity();
  const std::size_t chunk = chunk_points(n);
  const std::size_t chunks = (n + chunk - 1) / chunk;
  const auto count_of = [&](std::size_t k) { return std::min(chunk, n - k * chunk); };
  reserve(chunk, chunks > 1 ? 2 : 1);

  upload(bases, 0, count_of(0), 0);
  Jacobian acc = Jacobian::identity();
  for (std::size_t k = 0; k < chunks; ++k) {
    const int slot = static_cast<int>(k % 2);
    // Chunk k + 1 goes into the other buffer, whose last reader (the sum of chunk
    // k − 1) has returned. The future's destructor waits for the thread, so an
    // exception from the sum below cannot free buffers it still writes.
    std::future<void> next;
    if (k + 1 < chunks) {
      next = std::async(std::launch::async, [this, bases, first = (k + 1) * chunk, count = count_of(k + 1), slot] {
        check(cudaSetDevice(device_), "cudaSetDevice");
        upload(bases, first, count, 1 - slot);
      });
    }
    check(cudaStreamWaitEvent(stream, uploaded_[slot].get()), "wait for chunk upload");
    acc = acc + msm.sum(DeviceBasesView<Curve>(chunks_[slot].data(), count_of(k)), scalars + k * chunk, count_of(k),
                        stream, window_bits);
    if (next.valid()) next.get();
  }
  return acc;
}

template class StreamedMsm<ec::G1Curve>;
template class StreamedMsm<ec::G2Curve>;

}  // namespace zkpipe::gpu
