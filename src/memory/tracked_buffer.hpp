// The tracked large-buffer type: page-aligned anonymous memory from mmap, returned
// to the operating system by munmap when freed (never parked in a malloc arena, so
// RSS follows the ledger), carrying a stage tag that it reports to the ledger.
// Host backends allocate their own large memory (staging, scratch) through it; the
// fake backend of the tests does. The CUDA backend's device and page-locked buffers
// are not mmap'ed, so they carry a ledger charge of their own (gpu/device_buffer.hpp).
#pragma once

#include <cstddef>
#include <span>

#include "memory/buffer_ledger.hpp"

namespace zkpipe::memory {

class TrackedBuffer {
 public:
  TrackedBuffer() = default;
  // Throws std::bad_alloc when the mapping fails. The pages are touched only when
  // written, as with any anonymous mapping.
  TrackedBuffer(BufferLedger& ledger, Stage stage, std::size_t bytes);
  TrackedBuffer(TrackedBuffer&& other) noexcept;
  TrackedBuffer& operator=(TrackedBuffer&& other) noexcept;
  TrackedBuffer(const TrackedBuffer&) = delete;
  TrackedBuffer& operator=(const TrackedBuffer&) = delete;
  ~TrackedBuffer() { reset(); }

  std::byte* data() { return data_; }
  const std::byte* data() const { return data_; }
  // The usable size; the mapping (and the ledger's charge) is rounded up to pages.
  std::size_t size() const { return size_; }
  Stage stage() const { return charge_.stage(); }
  bool empty() const { return data_ == nullptr; }

  template <class T>
  std::span<T> as() {
    return {reinterpret_cast<T*>(data_), size_ / sizeof(T)};
  }

  void move_to(Stage stage) { charge_.move_to(stage); }
  // Writes every page so that the buffer is resident (benchmarks, tests).
  void touch();
  // Unmaps the memory and releases the charge.
  void reset();

 private:
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t mapped_ = 0;
  BufferLedger::Charge charge_;
};

}  // namespace zkpipe::memory
