#include "memory/tracked_buffer.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <new>
#include <utility>

namespace zkpipe::memory {

namespace {

std::size_t page_size() { return static_cast<std::size_t>(sysconf(_SC_PAGESIZE)); }

std::size_t round_to_pages(std::size_t bytes) {
  const std::size_t page = page_size();
  return (bytes + page - 1) / page * page;
}

}  // namespace

TrackedBuffer::TrackedBuffer(BufferLedger& ledger, Stage stage, std::size_t bytes)
    : size_(bytes), mapped_(round_to_pages(bytes)) {
  if (mapped_ > 0) {
    void* p = mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    data_ = static_cast<std::byte*>(p);
  }
  charge_ = ledger.charge(stage, mapped_);
}

TrackedBuffer::TrackedBuffer(TrackedBuffer&& other) noexcept { *this = std::move(other); }

TrackedBuffer& TrackedBuffer::operator=(TrackedBuffer&& other) noexcept {
  if (this != &other) {
    reset();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, 0);
    charge_ = std::move(other.charge_);
  }
  return *this;
}

void TrackedBuffer::touch() {
  const std::size_t page = page_size();
  for (std::size_t off = 0; off < mapped_; off += page) data_[off] = std::byte{1};
}

void TrackedBuffer::reset() {
  if (data_ != nullptr) munmap(data_, mapped_);
  data_ = nullptr;
  size_ = 0;
  mapped_ = 0;
  charge_.release();
}

}  // namespace zkpipe::memory
