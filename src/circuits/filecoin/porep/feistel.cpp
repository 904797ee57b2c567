#include "circuits/filecoin/porep/feistel.hpp"

#include <stdexcept>
#include <string>

#include "circuits/filecoin/hashers/blake2b.hpp"

namespace zkpipe::filecoin::porep {
namespace {

void store_be64(std::uint64_t v, std::uint8_t* out) {
  for (int i = 7; i >= 0; --i) {
    out[i] = static_cast<std::uint8_t>(v);
    v >>= 8;
  }
}

}  // namespace

FeistelPermutation::FeistelPermutation(std::uint64_t n, const FeistelKeys& keys) : n_(n), keys_(keys) {
  if (n == 0 || n > (std::uint64_t{1} << 62)) {
    throw std::invalid_argument("FeistelPermutation: domain size " + std::to_string(n) + ", expected 1..2^62");
  }
  // The reference starts at 4^1 even for n ≤ 1, so the halves are never empty.
  while ((std::uint64_t{1} << (2 * half_bits_)) < n) ++half_bits_;
  half_mask_ = (std::uint64_t{1} << half_bits_) - 1;
}

std::uint64_t FeistelPermutation::round_function(std::uint64_t right, std::uint64_t key) const {
  std::array<std::uint8_t, 16> input{};
  store_be64(right, input.data());
  store_be64(key, input.data() + 8);
  std::array<std::uint8_t, 64> digest{};
  hashers::blake2b(input, digest);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | digest[i];
  return v & half_mask_;
}

std::uint64_t FeistelPermutation::encrypt(std::uint64_t value) const {
  std::uint64_t left = (value >> half_bits_) & half_mask_;
  std::uint64_t right = value & half_mask_;
  for (int r = 0; r < kRounds; ++r) {
    const std::uint64_t next_right = left ^ round_function(right, keys_[r]);
    left = right;
    right = next_right;
  }
  return (left << half_bits_) | right;
}

std::uint64_t FeistelPermutation::decrypt(std::uint64_t value) const {
  std::uint64_t left = (value >> half_bits_) & half_mask_;
  std::uint64_t right = value & half_mask_;
  for (int r = kRounds - 1; r >= 0; --r) {
    const std::uint64_t next_left = right ^ round_function(left, keys_[r]);
    right = left;
    left = next_left;
  }
  return (left << half_bits_) | right;
}

void FeistelPermutation::check_index(std::uint64_t index, const char* what) const {
  if (index >= n_) {
    throw std::out_of_range(std::string("FeistelPermutation::") + what + ": index " + std::to_string(index) +
                            " outside [0, " + std::to_string(n_) + ")");
  }
}

std::uint64_t FeistelPermutation::permute(std::uint64_t index) const {
  check_index(index, "permute");
  std::uint64_t u = encrypt(index);
  while (u >= n_) u = encrypt(u);
  return u;
}

std::uint64_t FeistelPermutation::invert(std::uint64_t index) const {
  check_index(index, "invert");
  std::uint64_t u = decrypt(index);
  while (u >= n_) u = decrypt(u);
  return u;
}

}  // namespace zkpipe::filecoin::porep
