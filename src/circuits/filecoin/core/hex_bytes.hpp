// Bytes as hex text: two digits a byte, in order (how sector.json, the daemon's client
// and Filecoin's tools write 32-byte commitments and randomness).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace zkpipe::filecoin::core {

// The `bytes` bytes `hex` spells (either case). Throws std::invalid_argument saying
// what is wrong: "expected 64 hex digits (32 bytes), got 63 characters", or "expected
// hex digits, got 'x' at 5".
std::vector<std::uint8_t> bytes_from_hex(std::string_view hex, std::size_t bytes);

// Lowercase.
std::string hex_of(std::span<const std::uint8_t> bytes);

}  // namespace zkpipe::filecoin::core
