#include "hex_args.hpp"

#include <stdexcept>
#include <string_view>

#include "circuits/filecoin/core/hex_bytes.hpp"

namespace zkpipe::cli {

std::vector<std::uint8_t> hex_option(const std::string& text, std::size_t bytes, const std::string& option) {
  std::string_view t = text;
  if (t.starts_with("0x")) t.remove_prefix(2);
  try {
    return filecoin::core::bytes_from_hex(t, bytes);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(option + ": " + e.what());
  }
}

}  // namespace zkpipe::cli
