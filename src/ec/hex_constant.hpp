// Compile-time parsing of big-endian hexadecimal constants, so that curve constants
// can be written in the same form as in the specifications they come from.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string_view>

#include "ff/limbs.hpp"

namespace zkpipe::ec {

namespace detail {

constexpr ff::u64 hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return static_cast<ff::u64>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<ff::u64>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<ff::u64>(c - 'A' + 10);
  throw std::invalid_argument("hex constant: not a hexadecimal digit");
}

}  // namespace detail

// "0x..." (prefix optional) to little-endian limbs. Used in constant expressions, where
// a malformed or oversized literal becomes a compile error.
template <std::size_t N>
constexpr ff::Limbs<N> limbs_from_hex(std::string_view hex) {
  if (hex.starts_with("0x")) hex.remove_prefix(2);
  if (hex.size() > 16 * N) throw std::invalid_argument("hex constant: too many digits");
  ff::Limbs<N> r{};
  for (std::size_t i = 0; i < hex.size(); ++i) {
    std::size_t nibble = hex.size() - 1 - i;  // position counted from the least significant end
    r[nibble / 16] |= detail::hex_digit_value(hex[i]) << (4 * (nibble % 16));
  }
  return r;
}

// A field element from its canonical hexadecimal value; the value must be < p.
template <class Field>
constexpr Field field_from_hex(std::string_view hex) {
  auto value = Field::from_canonical(limbs_from_hex<Field::kLimbs>(hex));
  if (!value) throw std::invalid_argument("hex constant: not below the field modulus");
  return *value;
}

}  // namespace zkpipe::ec
