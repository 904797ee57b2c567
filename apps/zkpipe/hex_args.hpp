// Byte strings given in hex on the command line (commitments, randomness, ids).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace zkpipe::cli {

// The `bytes` bytes `text` spells in hex, with or without "0x". Throws
// std::invalid_argument starting with `option` and saying what is wrong.
std::vector<std::uint8_t> hex_option(const std::string& text, std::size_t bytes, const std::string& option);

}  // namespace zkpipe::cli
