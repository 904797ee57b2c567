// Helpers shared by the r1cs tests.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "ff/fr.hpp"

namespace zkpipe::gadgets::testing {

inline std::vector<std::uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

inline std::string hex_of(const std::vector<std::uint8_t>& bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

// A canonical Fr from a big-endian hex string of up to 64 digits.
inline ff::Fr fr_from_hex(std::string_view hex) {
  ff::Limbs<4> limbs{};
  for (char ch : hex) {
    const unsigned d = ch <= '9' ? static_cast<unsigned>(ch - '0') : static_cast<unsigned>(ch - 'a' + 10);
    for (int i = 3; i > 0; --i) limbs[i] = (limbs[i] << 4) | (limbs[i - 1] >> 60);
    limbs[0] = (limbs[0] << 4) | d;
  }
  return *ff::Fr::from_canonical(limbs);
}

}  // namespace zkpipe::gadgets::testing
