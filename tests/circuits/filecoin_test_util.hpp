// Helpers for the Filecoin tests: reference vectors written the way the Rust
// sources write them (hex strings, u64 limbs, filled arrays).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ff/fr.hpp"

namespace zkpipe::filecoin::testing {

inline std::uint8_t hex_digit(char ch) {
  if (ch >= '0' && ch <= '9') return static_cast<std::uint8_t>(ch - '0');
  if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'f') return static_cast<std::uint8_t>((ch | 0x20) - 'a' + 10);
  throw std::invalid_argument(std::string("bad hex digit '") + ch + "'");
}

inline std::string hex_of(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

// Bytes from a hex string in byte order (as hex::encode writes them), any length.
inline std::vector<std::uint8_t> bytes_from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) throw std::invalid_argument("odd-length hex");
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(hex_digit(hex[i]) << 4 | hex_digit(hex[i + 1])));
  }
  return out;
}

// The same, into an array of a fixed size.
template <std::size_t N>
std::array<std::uint8_t, N> bytes_from_hex(std::string_view hex) {
  if (hex.size() != 2 * N) throw std::invalid_argument("hex of the wrong length");
  std::array<std::uint8_t, N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    out[i] = static_cast<std::uint8_t>(hex_digit(hex[2 * i]) << 4 | hex_digit(hex[2 * i + 1]));
  }
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

// neptune's scalar_from_u64s and filecoin-hashers' u64s_to_u8s: four 64-bit limbs,
// least significant first, of the canonical value.
inline ff::Fr fr_from_u64s(std::array<std::uint64_t, 4> limbs) {
  return *ff::Fr::from_canonical(ff::Limbs<4>{limbs[0], limbs[1], limbs[2], limbs[3]});
}

// A canonical Fr from a big-endian hex string (the "0x…" of Python/sage output).
inline ff::Fr fr_from_be_hex(std::string_view hex) {
  if (hex.starts_with("0x")) hex.remove_prefix(2);
  ff::Limbs<4> limbs{};
  for (char ch : hex) {
    for (int i = 3; i > 0; --i) limbs[i] = (limbs[i] << 4) | (limbs[i - 1] >> 60);
    limbs[0] = (limbs[0] << 4) | hex_digit(ch);
  }
  return *ff::Fr::from_canonical(limbs);
}

}  // namespace zkpipe::filecoin::testing
