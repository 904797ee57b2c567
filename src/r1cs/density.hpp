// One bit per variable: does the variable appear (with any coefficient) in a given
// matrix? The prover uses these to skip MSM bases whose scalars are always zero.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace zkpipe::r1cs {

class DensityBitmap {
 public:
  DensityBitmap() = default;
  explicit DensityBitmap(std::size_t size) { resize(size); }

  std::size_t size() const { return size_; }

  void resize(std::size_t size) {
    size_ = size;
    words_.resize((size + 63) / 64, 0);
  }

  // Grows by one clear bit (a new variable, not yet used).
  void push_back() { resize(size_ + 1); }

  void set(std::size_t i) { words_[i / 64] |= std::uint64_t{1} << (i % 64); }

  // Sets every bit of [0, count) that `other` has set.
  void merge_prefix(const DensityBitmap& other, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      if (other.test(i)) set(i);
    }
  }

  // Grows by the bits [from, tail.size()) of `tail`, in order.
  void append(const DensityBitmap& tail, std::size_t from) {
    const std::size_t start = size_;
    resize(size_ + (tail.size() - from));
    for (std::size_t i = from; i < tail.size(); ++i) {
      if (tail.test(i)) set(start + i - from);
    }
  }
  bool test(std::size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }

  std::size_t count() const {
    std::size_t n = 0;
    for (std::uint64_t w : words_) n += static_cast<std::size_t>(std::popcount(w));
    return n;
  }

  const std::vector<std::uint64_t>& words() const { return words_; }

 private:
  std::vector<std::uint64_t> words_;
  std::size_t size_ = 0;
};

}  // namespace zkpipe::r1cs
