#include "circuits/filecoin/core/fr32.hpp"

#include <stdexcept>
#include <string>

namespace zkpipe::filecoin::core::fr32 {

namespace {

constexpr std::size_t kElementBits = 8 * kElementBytes;

// The byte of the raw bit stream that starts at bit `bit` (bits past the end read 0).
std::uint8_t byte_at_bit(std::span<const std::uint8_t> raw, std::size_t bit) {
  const std::size_t byte = bit / 8;
  const unsigned shift = bit % 8;
  const unsigned low = byte < raw.size() ? raw[byte] : 0u;
  const unsigned high = shift != 0 && byte + 1 < raw.size() ? raw[byte + 1] : 0u;
  return static_cast<std::uint8_t>((low >> shift) | (high << (8 - shift)));
}

}  // namespace

std::uint64_t padded_size(std::uint64_t unpadded_bytes) {
  const std::uint64_t bits = unpadded_bytes * 8;
  const std::uint64_t out_bits = bits / kDataBits * kElementBits + bits % kDataBits;
  return (out_bits + 7) / 8;
}

std::uint64_t unpadded_size(std::uint64_t padded_bytes) {
  const std::uint64_t bits = padded_bytes * 8;
  const std::uint64_t out_bits = bits / kElementBits * kDataBits + bits % kElementBits;
  return out_bits / 8;
}

std::vector<std::uint8_t> pad(std::span<const std::uint8_t> raw) {
  const std::size_t raw_bits = raw.size() * 8;
  const std::size_t elements = (raw_bits + kDataBits - 1) / kDataBits;
  std::vector<std::uint8_t> out(elements * kElementBytes);
  for (std::size_t e = 0; e < elements; ++e) {
    std::uint8_t* element = out.data() + e * kElementBytes;
    for (std::size_t i = 0; i < kElementBytes; ++i) element[i] = byte_at_bit(raw, e * kDataBits + 8 * i);
    element[kElementBytes - 1] &= 0x3f;
  }
  return out;
}

std::vector<std::uint8_t> unpad(std::span<const std::uint8_t> padded, std::size_t raw_bytes) {
  if (padded.size() % kElementBytes != 0) {
    throw std::invalid_argument("fr32 unpad: padded length " + std::to_string(padded.size()) +
                                " is not a multiple of 32 bytes");
  }
  const std::uint64_t available = unpadded_size(padded.size());
  if (raw_bytes > available) {
    throw std::invalid_argument("fr32 unpad: " + std::to_string(raw_bytes) + " raw bytes requested, " +
                                std::to_string(padded.size()) + " padded bytes hold " + std::to_string(available));
  }
  // Each element's 254 data bits land at raw bit 254·e; the units do not overlap,
  // so they are OR-ed in (one spare byte for the last unit's spill).
  std::vector<std::uint8_t> out(raw_bytes + kElementBytes + 1, 0);
  const std::size_t elements = padded.size() / kElementBytes;
  for (std::size_t e = 0; e < elements && e * kDataBits < raw_bytes * 8; ++e) {
    const std::size_t start = e * kDataBits;
    const unsigned shift = start % 8;
    for (std::size_t i = 0; i < kElementBytes; ++i) {
      unsigned v = padded[e * kElementBytes + i];
      if (i == kElementBytes - 1) v &= 0x3f;
      const std::size_t byte = start / 8 + i;
      out[byte] = static_cast<std::uint8_t>(out[byte] | (v << shift));
      if (shift != 0) out[byte + 1] = static_cast<std::uint8_t>(out[byte + 1] | (v >> (8 - shift)));
    }
  }
  out.resize(raw_bytes);
  return out;
}

}  // namespace zkpipe::filecoin::core::fr32
