// Field values most of which are 0 or 1 — a hash circuit's assignment — stored at
// about two bits each: a bitmap of which values are "wide" (neither 0 nor 1), the
// 0/1 values as bits, and the wide values in order. A 2^27-constraint PoRep
// partition's aux assignment takes ~40 MiB this way instead of ~4 GiB.
//
// The layout is what the sparse product and the device read directly: value i is
// wide iff bit i of wide_mask is set; then it is wide_values[wide_before[i / 64] +
// popcount(wide_mask word below bit i)], else it is bit i of bits.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace zkpipe::r1cs {

class CompactValues {
 public:
  CompactValues() = default;

  // Packs full values (on all cores).
  static CompactValues of(std::span<const ff::Fr> values);

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  bool is_wide(std::size_t i) const { return (wide_mask_[i / 64] >> (i % 64)) & 1; }
  bool bit(std::size_t i) const { return (bits_[i / 64] >> (i % 64)) & 1; }
  const ff::Fr& wide_value(std::size_t i) const {
    const std::uint64_t below = wide_mask_[i / 64] & ((std::uint64_t{1} << (i % 64)) - 1);
    return wide_values_[wide_before_[i / 64] + static_cast<std::size_t>(std::popcount(below))];
  }
  ff::Fr operator[](std::size_t i) const {
    if (is_wide(i)) return wide_value(i);
    return bit(i) ? ff::Fr::one() : ff::Fr::zero();
  }

  // All values in full (on all cores), for consumers that need Fr scalars.
  std::vector<ff::Fr> expand() const;

  std::span<const std::uint64_t> wide_mask() const { return wide_mask_; }
  std::span<const std::uint64_t> bits() const { return bits_; }
  std::span<const std::uint32_t> wide_before() const { return wide_before_; }
  std::span<const ff::Fr> wide_values() const { return wide_values_; }

  // Heap bytes in use, for the ledger: the word arrays' capacity, and the wide values
  // written (their reserved tail, never written, takes no memory: finish()).
  std::size_t bytes() const;

  // Appends values in order; finish() then computes the rank index.
  class Builder {
   public:
    Builder() = default;
    explicit Builder(std::size_t size_hint);

    std::size_t size() const { return size_; }
    // `count` (≤ 64) 0/1 values: the low bits of `values`, least significant first.
    void append_bits(std::uint64_t values, unsigned count);
    // One value of any kind (0 and 1 are stored as bits).
    void append(const ff::Fr& value);
    // Another builder's values after these (moved from; left empty, its memory kept for reuse).
    void append(Builder&& other);

    CompactValues finish() &&;

   private:
    void reserve_words(std::size_t words);

    std::size_t size_ = 0;
    std::vector<std::uint64_t> wide_mask_;
    std::vector<std::uint64_t> bits_;
    std::vector<ff::Fr> wide_values_;
  };

 private:
  std::size_t size_ = 0;
  std::vector<std::uint64_t> wide_mask_;
  std::vector<std::uint64_t> bits_;
  std::vector<std::uint32_t> wide_before_;
  std::vector<ff::Fr> wide_values_;
};

}  // namespace zkpipe::r1cs
