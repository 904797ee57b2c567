// Host → device copies through two page-locked chunks: while the DMA engine copies
// one chunk, host threads fill the other, so a vector in pageable memory reaches
// the device at close to the link's speed without pinning the whole vector.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <span>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "gpu/cuda_error.hpp"
#include "gpu/device_buffer.hpp"

namespace zkpipe::gpu {

class CudaEvent {
 public:
  // Without timing by default (cheaper to record and wait on); cudaEventDefault to time with it.
  explicit CudaEvent(unsigned flags = cudaEventDisableTiming) {
    check(cudaEventCreateWithFlags(&event_, flags), "cudaEventCreate");
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  ~CudaEvent() { cudaEventDestroy(event_); }
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

class PinnedStaging {
 public:
  static constexpr std::size_t kDefaultChunkBytes = std::size_t{64} << 20;

  explicit PinnedStaging(std::size_t chunk_bytes = kDefaultChunkBytes) : chunk_bytes_(chunk_bytes) {}
  // The chunks charge `ledger`.
  explicit PinnedStaging(memory::BufferLedger& ledger, std::size_t chunk_bytes = kDefaultChunkBytes)
      : chunk_bytes_(chunk_bytes), chunks_{PinnedBuffer<std::byte>(ledger), PinnedBuffer<std::byte>(ledger)} {}

  // Writes count elements into device memory dst; fill(first, n, out) produces
  // elements [first, first + n) into out (page-locked). Returns once the last
  // chunk is queued on stream; the copies complete in stream order.
  template <class T, class Fill>
  void upload(T* dst, std::size_t count, cudaStream_t stream, Fill&& fill) {
    const std::size_t per_chunk = std::max<std::size_t>(1, chunk_bytes_ / sizeof(T));
    for (auto& c : chunks_) c.reserve(per_chunk * sizeof(T));
    std::size_t turn = 0;
    for (std::size_t first = 0; first < count; first += per_chunk, turn ^= 1) {
      const std::size_t n = std::min(per_chunk, count - first);
      // The chunk's previous copy must be done before it is refilled.
      check(cudaEventSynchronize(done_[turn].get()), "staging wait");
      T* out = reinterpret_cast<T*>(chunks_[turn].data());
      fill(first, n, out);
      check(cudaMemcpyAsync(dst + first, out, n * sizeof(T), cudaMemcpyHostToDevice, stream), "staging copy");
      check(cudaEventRecord(done_[turn].get(), stream), "staging record");
    }
  }

  template <class T>
  void upload(T* dst, std::span<const T> src, cudaStream_t stream) {
    upload(dst, src.size(), stream, [&](std::size_t first, std::size_t n, T* out) {
      // One thread copies pageable memory at a fraction of the link's speed.
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1 << 16), [&](const auto& r) {
        std::copy(src.data() + first + r.begin(), src.data() + first + r.end(), out + r.begin());
      });
    });
  }

 private:
  std::size_t chunk_bytes_;
  PinnedBuffer<std::byte> chunks_[2];
  CudaEvent done_[2];
};

}  // namespace zkpipe::gpu
