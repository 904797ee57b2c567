// Byte sizes as users write them in flags and configuration files: a plain number,
// or with a unit (B, KiB, MiB, GiB, TiB; KB, MB, GB as powers of ten), optionally
// after a space; and as messages print them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace zkpipe::formats {

// Nothing when the text is not such a size or the bytes overflow.
std::optional<std::size_t> parse_byte_size(std::string_view text);

// A size for a message, in binary units with one decimal: "1.5 GiB", "12.0 MiB".
std::string format_bytes(double bytes);

}  // namespace zkpipe::formats
