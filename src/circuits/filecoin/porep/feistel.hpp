// The Feistel network SDR's expander graph uses as a keyed pseudo-random permutation of
// [0, n): three rounds over a domain of 2·h bits (h the smallest number with 4^h ≥ n,
// and at least 1), each round function the first 8 bytes (big-endian) of
// BLAKE2b-512(right half as big-endian u64 ‖ round key as big-endian u64), masked to h
// bits. Values that land at or above n are encrypted again (cycle walking) until they
// fall inside. Of the four keys only the first three are used, one per round.
#pragma once

#include <array>
#include <cstdint>

namespace zkpipe::filecoin::porep {

using FeistelKeys = std::array<std::uint64_t, 4>;

class FeistelPermutation {
 public:
  static constexpr int kRounds = 3;

  // Throws std::invalid_argument for n = 0 or n above 2^62 (the domain must fit a u64).
  FeistelPermutation(std::uint64_t n, const FeistelKeys& keys);

  std::uint64_t size() const { return n_; }
  unsigned half_bits() const { return half_bits_; }

  // Throws std::out_of_range for an index ≥ n.
  std::uint64_t permute(std::uint64_t index) const;
  std::uint64_t invert(std::uint64_t index) const;

 private:
  std::uint64_t round_function(std::uint64_t right, std::uint64_t key) const;
  std::uint64_t encrypt(std::uint64_t value) const;
  std::uint64_t decrypt(std::uint64_t value) const;
  void check_index(std::uint64_t index, const char* what) const;

  std::uint64_t n_;
  FeistelKeys keys_;
  unsigned half_bits_ = 1;
  std::uint64_t half_mask_ = 0;
};

}  // namespace zkpipe::filecoin::porep
