// Signed-digit windows for Pippenger's bucket method.
//
// A scalar k < 2^255 is cut into W windows of c bits with digits d_w in
// [-(2^(c-1) - 1), 2^(c-1)], so that k = sum d_w·2^(w·c). A negative digit adds the
// negated base, which halves the buckets per window to 2^(c-1).
//
// The usual recoding walks the windows from the bottom and carries 1 into the next
// window whenever a digit exceeds 2^(c-1). The same digits come out of one big-integer
// addition: with H = sum_w (2^(c-1) - 1)·2^(w·c), the base-2^c digits e_w of k + H are
// exactly d_w + 2^(c-1) - 1. So each scalar is recoded once, into k + H, and any window's
// digit is then a bit-field read — independent per window, which lets threads work on
// different windows without sharing a carry chain.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "ff/fr.hpp"
#include "ff/limbs.hpp"

namespace zkpipe::ec {

// k + H: one limb more than Fr, because W·c may exceed 256 bits.
using RecodedScalar = ff::Limbs<5>;

class WindowLayout {
 public:
  static constexpr unsigned kMinBits = 1;
  static constexpr unsigned kMaxBits = 20;
  // Fr elements are < r < 2^255.
  static constexpr unsigned kScalarBits = ff::Fr::kBits;

  explicit WindowLayout(unsigned bits) : bits_(bits) {
    if (bits < kMinBits || bits > kMaxBits) {
      throw std::invalid_argument("msm: window size must be between 1 and 20 bits");
    }
    // One bit of headroom above the scalar keeps the top digit <= 2^(c-1), so the
    // top window never carries out.
    windows_ = (kScalarBits + 1 + bits - 1) / bits;
    const ff::u64 offset_digit = (ff::u64{1} << (bits - 1)) - 1;
    for (unsigned w = 0; w < windows_; ++w) add_at_bit(offset_, offset_digit, w * bits);
  }

  unsigned bits() const { return bits_; }
  unsigned windows() const { return windows_; }
  // Buckets per window: one per nonzero digit magnitude 1..2^(c-1).
  std::size_t buckets() const { return std::size_t{1} << (bits_ - 1); }

  // An upper bound on |digit| in window w: 2^(c-1), except in the top windows, where
  // scalars below 2^255 leave fewer bits.
  std::size_t digit_bound(unsigned window) const {
    const unsigned low_bit = window * bits_;
    if (low_bit + bits_ <= kScalarBits) return buckets();
    const unsigned left = kScalarBits > low_bit ? kScalarBits - low_bit : 0;
    return std::min(buckets(), (std::size_t{1} << left) + 1);
  }

  // k (canonical, as 5 limbs with the top one zero) -> k + H, in place.
  void recode(RecodedScalar& k) const { ff::limbs_add(k, k, offset_); }

  // The signed digit of window w of a recoded scalar.
  std::int32_t digit(const RecodedScalar& recoded, unsigned window) const {
    const unsigned shift = window * bits_;
    const unsigned limb = shift / 64;
    const unsigned offset = shift % 64;
    ff::u64 field = recoded[limb] >> offset;
    if (offset + bits_ > 64 && limb + 1 < recoded.size())
      field |= recoded[limb + 1] << (64 - offset);
    field &= (ff::u64{1} << bits_) - 1;
    return static_cast<std::int32_t>(field) - static_cast<std::int32_t>((1u << (bits_ - 1)) - 1);
  }

 private:
  static void add_at_bit(RecodedScalar& acc, ff::u64 value, unsigned bit) {
    RecodedScalar term{};
    term[bit / 64] = value << (bit % 64);
    if (bit % 64 != 0 && bit / 64 + 1 < term.size()) term[bit / 64 + 1] = value >> (64 - bit % 64);
    ff::limbs_add(acc, acc, term);
  }

  unsigned bits_;
  unsigned windows_ = 0;
  RecodedScalar offset_{};
};

}  // namespace zkpipe::ec
