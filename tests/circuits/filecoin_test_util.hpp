// Hex helpers shared by the Filecoin SDR tests.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace zkpipe::filecoin::testing {

inline std::string hex_of(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

inline std::vector<std::uint8_t> bytes_from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) throw std::invalid_argument("odd-length hex");
  const auto digit = [](char c) -> std::uint8_t {
    if (c >= '0' && c <= '9') return static_cast<std::uint8_t>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<std::uint8_t>(c - 'a' + 10);
    throw std::invalid_argument("bad hex digit");
  };
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < hex.size(); i += 2) out.push_back(static_cast<std::uint8_t>(digit(hex[i]) << 4 | digit(hex[i + 1])));
  return out;
}

// Four u64 limbs, least significant first, as the 32 little-endian bytes of the number
// (blstrs Scalar::from_u64s_le(..).to_repr()).
inline std::array<std::uint8_t, 32> le_bytes_of_limbs(const std::array<std::uint64_t, 4>& limbs) {
  std::array<std::uint8_t, 32> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint8_t>(limbs[i / 8] >> (8 * (i % 8)));
  return out;
}

inline std::array<std::uint8_t, 32> filled(std::uint8_t value) {
  std::array<std::uint8_t, 32> out{};
  out.fill(value);
  return out;
}

}  // namespace zkpipe::filecoin::testing
