// Owning handles for device memory and page-locked host memory. Both only grow:
// reserve(n) reallocates when n exceeds the capacity, so buffers kept in a context
// are allocated once and reused by every later partition of the same size.
//
// Each allocation of at least kLedgerMinBytes carries a charge in the buffer's
// ledger for as long as it exists (resized when the buffer grows): device memory
// under Stage::device, in the share of the device it was allocated on (the current
// one), which the ledger keeps out of its host totals (it is not in RSS),
// page-locked host memory under Stage::scratch (it is). The ledger is the one
// given at construction — a CudaProver passes its own (CudaProverOptions::ledger, the
// engine's) to every buffer it holds — or the process-wide one for stand-alone
// buffers (tests, benchmarks).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "gpu/cuda_error.hpp"
#include "memory/buffer_ledger.hpp"

namespace zkpipe::gpu {

// The smallest allocation that is charged to the ledger: the ledger's "large
// buffer" (DESIGN.md: every allocation of 1 MiB or more).
inline constexpr std::size_t kLedgerMinBytes = std::size_t{1} << 20;

namespace detail {

struct DeviceAllocator {
  // cudaMalloc allocates on the calling thread's current device.
  static memory::BufferLedger::Charge charge(memory::BufferLedger& ledger, std::size_t bytes) {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    return ledger.charge_device(device, bytes);
  }
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    return p;
  }
  static void release(void* p) { cudaFree(p); }
};

struct PinnedAllocator {
  static memory::BufferLedger::Charge charge(memory::BufferLedger& ledger, std::size_t bytes) {
    return ledger.charge_pinned(bytes);
  }
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMallocHost(&p, bytes), "cudaMallocHost");
    return p;
  }
  static void release(void* p) { cudaFreeHost(p); }
};

template <class T, class Allocator>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(memory::BufferLedger& ledger) : ledger_(&ledger) {}
  explicit Buffer(std::size_t n) { reserve(n); }
  Buffer(memory::BufferLedger& ledger, std::size_t n) : ledger_(&ledger) { reserve(n); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept
      : ledger_(o.ledger_),
        data_(std::exchange(o.data_, nullptr)),
        capacity_(std::exchange(o.capacity_, 0)),
        charge_(std::move(o.charge_)) {}
  Buffer& operator=(Buffer&& o) noexcept {
    std::swap(ledger_, o.ledger_);
    std::swap(data_, o.data_);
    std::swap(capacity_, o.capacity_);
    std::swap(charge_, o.charge_);
    return *this;
  }
  ~Buffer() {
    if (data_) Allocator::release(data_);
  }

  // Old contents are not kept when the buffer grows. The bytes are charged before
  // they are allocated: page-locking 64 MiB takes milliseconds, during which its pages
  // are resident, and a ledger sample taken then must not see them uncounted.
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    if (data_) Allocator::release(data_);
    data_ = nullptr;
    capacity_ = 0;
    const std::size_t bytes = n * sizeof(T);
    try {
      charge(bytes);
    } catch (const memory::DeviceLimitExceeded& e) {
      // Past the device-memory budget is out of memory, as cudaMalloc's own is (the
      // prover frees its caches and tries again, then streams).
      charge_.release();  // the old memory is gone too
      throw CudaError(cudaErrorMemoryAllocation, e.what());
    }
    try {
      data_ = static_cast<T*>(Allocator::allocate(bytes));
    } catch (...) {
      charge_.release();  // the old memory is gone and there is no new one
      throw;
    }
    capacity_ = n;
  }

  T* data() const { return data_; }
  std::size_t capacity() const { return capacity_; }

 private:
  // One charge for the buffer's whole life: growing resizes it, so the ledger counts
  // one buffer and its time in the stage runs from the first allocation.
  void charge(std::size_t bytes) {
    if (charge_.active()) {
      charge_.resize(bytes);
    } else if (bytes >= kLedgerMinBytes) {
      charge_ = Allocator::charge(*ledger_, bytes);
    }
  }

  memory::BufferLedger* ledger_ = &memory::BufferLedger::process();
  T* data_ = nullptr;
  std::size_t capacity_ = 0;
  memory::BufferLedger::Charge charge_;
};

}  // namespace detail

template <class T>
using DeviceBuffer = detail::Buffer<T, detail::DeviceAllocator>;

template <class T>
using PinnedBuffer = detail::Buffer<T, detail::PinnedAllocator>;

}  // namespace zkpipe::gpu
