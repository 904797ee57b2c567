// Byte sizes as users write them in every flag and configuration key: a number of
// bytes, or a number (a fraction allowed: 1.5GiB) with a unit, optionally after a
// space — B; KiB, MiB, GiB, TiB, or K, M, G, T alone, as powers of 1024; KB, MB, GB,
// TB as powers of ten — and as messages print them.
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
