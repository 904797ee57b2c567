// Filecoin's fr32 padding (rust-fil-proofs fr32 crate): raw bytes read as one
// little-endian bit stream (least significant bit of each byte first) are cut into
// 254-bit units, and each unit is written as a 32-byte element with its two top
// bits zero, so that every element is a canonical Fr. 127 raw bytes fill exactly
// four elements (128 bytes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace zkpipe::filecoin::core::fr32 {

inline constexpr std::size_t kDataBits = 254;
inline constexpr std::size_t kElementBytes = 32;

// fr32's to_padded_bytes: a raw size (or offset) in padded bytes, rounded up.
std::uint64_t padded_size(std::uint64_t unpadded_bytes);
// fr32's to_unpadded_bytes: a padded size in raw bytes, rounded down.
std::uint64_t unpadded_size(std::uint64_t padded_bytes);

// Fr32Reader: the padded stream, the last unit zero-filled to a whole element
// (30 raw bytes give 32, 32 give 64).
std::vector<std::uint8_t> pad(std::span<const std::uint8_t> raw);

// write_unpadded from offset 0: the first raw_bytes raw bytes held by whole padded
// elements. Throws std::invalid_argument when padded is not a whole number of
// elements or holds fewer than raw_bytes raw bytes.
std::vector<std::uint8_t> unpad(std::span<const std::uint8_t> padded, std::size_t raw_bytes);

}  // namespace zkpipe::filecoin::core::fr32
