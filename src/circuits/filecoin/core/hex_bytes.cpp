#include "circuits/filecoin/core/hex_bytes.hpp"

#include <stdexcept>

namespace zkpipe::filecoin::core {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::vector<std::uint8_t> bytes_from_hex(std::string_view hex, std::size_t bytes) {
  if (hex.size() != 2 * bytes) {
    throw std::invalid_argument("expected " + std::to_string(2 * bytes) + " hex digits (" + std::to_string(bytes) +
                                " bytes), got " + std::to_string(hex.size()) + " characters");
  }
  std::vector<std::uint8_t> out(bytes);
  for (std::size_t i = 0; i < hex.size(); ++i) {
    const int v = hex_value(hex[i]);
    if (v < 0) {
      // A control byte is shown by its code, not printed into the message.
      const unsigned char c = static_cast<unsigned char>(hex[i]);
      std::string shown = "byte " + std::to_string(c);
      if (c >= 0x20 && c < 0x7f) shown = {'\'', hex[i], '\''};
      throw std::invalid_argument("expected hex digits, got " + shown + " at " + std::to_string(i));
    }
    out[i / 2] = static_cast<std::uint8_t>(out[i / 2] << 4 | v);
  }
  return out;
}

std::string hex_of(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (const std::uint8_t b : bytes) {
    out += kDigits[b >> 4];
    out += kDigits[b & 15];
  }
  return out;
}

}  // namespace zkpipe::filecoin::core
