// Owning handles for device memory and page-locked host memory. Both only grow:
// reserve(n) reallocates when n exceeds the capacity, so buffers kept in a context
// are allocated once and reused by every later partition of the same size.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "gpu/cuda_error.hpp"

namespace zkpipe::gpu {

namespace detail {

struct DeviceAllocator {
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    check(cudaMalloc(&p, bytes), "cudaMalloc");
    return p;
  }
  static void release(void* p) { cudaFree(p); }
};

struct PinnedAllocator {
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
  explicit Buffer(std::size_t n) { reserve(n); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), capacity_(std::exchange(o.capacity_, 0)) {}
  Buffer& operator=(Buffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(capacity_, o.capacity_);
    return *this;
  }
  ~Buffer() {
    if (data_) Allocator::release(data_);
  }

  // Old contents are not kept when the buffer grows.
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    if (data_) Allocator::release(data_);
    data_ = nullptr;
    capacity_ = 0;
    data_ = static_cast<T*>(Allocator::allocate(n * sizeof(T)));
    capacity_ = n;
  }

  T* data() const { return data_; }
  std::size_t capacity() const { return capacity_; }

 private:
  T* data_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace detail

template <class T>
using DeviceBuffer = detail::Buffer<T, detail::DeviceAllocator>;

template <class T>
using PinnedBuffer = detail::Buffer<T, detail::PinnedAllocator>;

}  // namespace zkpipe::gpu
