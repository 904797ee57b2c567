// Bit-reversal of indices and of whole arrays: the order in which a radix-2
// decimation-in-frequency NTT leaves its output, and in which a
// decimation-in-time NTT wants its input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "ff/fr.hpp"

namespace zkpipe::poly {

// The low log_n bits of i, reversed. log_n <= 64.
constexpr std::size_t reverse_bits(std::size_t i, unsigned log_n) {
  std::uint64_t x = i;
  x = ((x >> 1) & 0x5555555555555555) | ((x & 0x5555555555555555) << 1);
  x = ((x >> 2) & 0x3333333333333333) | ((x & 0x3333333333333333) << 2);
  x = ((x >> 4) & 0x0f0f0f0f0f0f0f0f) | ((x & 0x0f0f0f0f0f0f0f0f) << 4);
  x = __builtin_bswap64(x);
  return log_n == 0 ? 0 : static_cast<std::size_t>(x >> (64 - log_n));
}

// Moves a[i] to a[reverse_bits(i, log2 |a|)] for every i, in place and in
// parallel. Throws std::invalid_argument unless |a| is a power of two.
void bit_reverse_permutation(std::span<ff::Fr> a);

}  // namespace zkpipe::poly
