#include "r1cs/compact_values.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <stdexcept>

#include "ff/huge_pages.hpp"

namespace zkpipe::r1cs {

namespace {

std::size_t words_for(std::size_t values) { return (values + 63) / 64; }

// ORs the low `count` bits of `values` into `words` at bit position `at`.
void put_bits(std::vector<std::uint64_t>& words, std::size_t at, std::uint64_t values, unsigned count) {
  if (count == 0) return;
  if (count < 64) values &= (std::uint64_t{1} << count) - 1;
  const std::size_t word = at / 64;
  const unsigned shift = at % 64;
  words[word] |= values << shift;
  if (shift != 0 && shift + count > 64) words[word + 1] |= values >> (64 - shift);
}

}  // namespace

CompactValues CompactValues::of(std::span<const ff::Fr> values) {
  // Word by word in parallel, then the wide values gathered in order.
  const std::size_t words = words_for(values.size());
  CompactValues out;
  out.size_ = values.size();
  out.wide_mask_.assign(words, 0);
  out.bits_.assign(words, 0);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, words, 1024), [&](const auto& range) {
    for (std::size_t w = range.begin(); w != range.end(); ++w) {
      std::uint64_t wide = 0;
      std::uint64_t bits = 0;
      const std::size_t end = std::min(values.size(), 64 * (w + 1));
      for (std::size_t i = 64 * w; i < end; ++i) {
        const ff::Fr& v = values[i];
        if (v.is_one()) {
          bits |= std::uint64_t{1} << (i % 64);
        } else if (!v.is_zero()) {
          wide |= std::uint64_t{1} << (i % 64);
        }
      }
      out.wide_mask_[w] = wide;
      out.bits_[w] = bits;
    }
  });
  out.wide_before_.resize(words);
  std::size_t wide_count = 0;
  for (std::size_t w = 0; w < words; ++w) {
    out.wide_before_[w] = static_cast<std::uint32_t>(wide_count);
    wide_count += static_cast<std::size_t>(std::popcount(out.wide_mask_[w]));
  }
  if (wide_count > UINT32_MAX) throw std::length_error("CompactValues: more than 2^32 wide values");
  out.wide_values_.resize(wide_count);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, words, 1024), [&](const auto& range) {
    for (std::size_t w = range.begin(); w != range.end(); ++w) {
      std::size_t k = out.wide_before_[w];
      for (std::uint64_t m = out.wide_mask_[w]; m != 0; m &= m - 1) {
        out.wide_values_[k++] = values[64 * w + static_cast<std::size_t>(std::countr_zero(m))];
      }
    }
  });
  return out;
}

std::vector<ff::Fr> CompactValues::expand() const {
  std::vector<ff::Fr> out;
  ff::resize_on_huge_pages(out, size_);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, words_for(size_), 1024), [&](const auto& range) {
    for (std::size_t w = range.begin(); w != range.end(); ++w) {
      std::size_t k = wide_before_[w];
      const std::size_t end = std::min(size_, 64 * (w + 1));
      for (std::size_t i = 64 * w; i < end; ++i) {
        const unsigned b = i % 64;
        if ((wide_mask_[w] >> b) & 1) {
          out[i] = wide_values_[k++];
        } else {
          out[i] = ((bits_[w] >> b) & 1) ? ff::Fr::one() : ff::Fr::zero();
        }
      }
    }
  });
  return out;
}

std::size_t CompactValues::bytes() const {
  return (wide_mask_.capacity() + bits_.capacity()) * sizeof(std::uint64_t) +
         wide_before_.capacity() * sizeof(std::uint32_t) + wide_values_.size() * sizeof(ff::Fr);
}

// The wide values are reserved for the whole hint too: untouched reserved pages take
// no memory, and growing by doubling would copy them and, for a moment, hold two
// copies (one partition's are gigabytes).
CompactValues::Builder::Builder(std::size_t size_hint) {
  reserve_words(words_for(size_hint));
  wide_values_.reserve(size_hint);
}

void CompactValues::Builder::reserve_words(std::size_t words) {
  wide_mask_.reserve(words);
  bits_.reserve(words);
}

void CompactValues::Builder::append_bits(std::uint64_t values, unsigned count) {
  if (count > 64) throw std::invalid_argument("CompactValues::Builder::append_bits: at most 64 at a time");
  const std::size_t words = words_for(size_ + count);
  if (words > bits_.size()) {
    wide_mask_.resize(words, 0);
    bits_.resize(words, 0);
  }
  put_bits(bits_, size_, values, count);
  size_ += count;
}

void CompactValues::Builder::append(const ff::Fr& value) {
  if (value.is_zero() || value.is_one()) return append_bits(value.is_one() ? 1 : 0, 1);
  append_bits(0, 1);
  put_bits(wide_mask_, size_ - 1, 1, 1);
  wide_values_.push_back(value);
}

void CompactValues::Builder::append(Builder&& other) {
  const std::size_t at = size_;
  const std::size_t words = words_for(size_ + other.size_);
  wide_mask_.resize(words, 0);
  bits_.resize(words, 0);
  for (std::size_t w = 0; w < other.bits_.size(); ++w) {
    const unsigned count = static_cast<unsigned>(std::min<std::size_t>(64, other.size_ - 64 * w));
    put_bits(bits_, at + 64 * w, other.bits_[w], count);
    put_bits(wide_mask_, at + 64 * w, other.wide_mask_[w], count);
  }
  size_ += other.size_;
  wide_values_.insert(wide_values_.end(), other.wide_values_.begin(), other.wide_values_.end());
  // Emptied but not freed: a builder reused for the next part allocates nothing.
  other.size_ = 0;
  other.wide_mask_.clear();
  other.bits_.clear();
  other.wide_values_.clear();
}

CompactValues CompactValues::Builder::finish() && {
  CompactValues out;
  out.size_ = size_;
  out.wide_mask_ = std::move(wide_mask_);
  out.bits_ = std::move(bits_);
  out.wide_values_ = std::move(wide_values_);
  out.wide_mask_.shrink_to_fit();
  out.bits_.shrink_to_fit();
  // The wide values keep their capacity: what lies past their end was never written,
  // so it takes no memory, while shrinking would copy them all (gigabytes for a
  // Window PoSt partition) and hold both copies for a moment.
  out.wide_before_.resize(out.wide_mask_.size());
  std::size_t wide_count = 0;
  for (std::size_t w = 0; w < out.wide_mask_.size(); ++w) {
    out.wide_before_[w] = static_cast<std::uint32_t>(wide_count);
    wide_count += static_cast<std::size_t>(std::popcount(out.wide_mask_[w]));
  }
  if (wide_count > UINT32_MAX) throw std::length_error("CompactValues: more than 2^32 wide values");
  *this = Builder();
  return out;
}

}  // namespace zkpipe::r1cs
