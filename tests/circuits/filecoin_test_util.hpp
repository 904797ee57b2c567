// Helpers for the Filecoin tests: reference vectors written the way the Rust
// sources write them.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "ff/fr.hpp"

namespace zkpipe::filecoin::testing {

// neptune's scalar_from_u64s and filecoin-hashers' u64s_to_u8s: four 64-bit limbs,
// least significant first, of the canonical value.
inline ff::Fr fr_from_u64s(std::array<std::uint64_t, 4> limbs) {
  return *ff::Fr::from_canonical(ff::Limbs<4>{limbs[0], limbs[1], limbs[2], limbs[3]});
}

inline std::uint8_t hex_digit(char ch) {
  return static_cast<std::uint8_t>(ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
}

// Bytes from a hex string in byte order (as hex::encode writes them).
template <std::size_t N>
std::array<std::uint8_t, N> bytes_from_hex(std::string_view hex) {
  std::array<std::uint8_t, N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    out[i] = static_cast<std::uint8_t>(hex_digit(hex[2 * i]) << 4 | hex_digit(hex[2 * i + 1]));
  }
  return out;
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
