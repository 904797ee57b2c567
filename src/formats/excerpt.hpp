// Untrusted values echoed in error messages, cut short: a 100 MB "number" in a JSON
// file or a request must not become a 100 MB error.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace zkpipe::formats {

// At most `max_chars` of `text`, with the number of characters left out.
std::string excerpt(std::string_view text, std::size_t max_chars = 64);

}  // namespace zkpipe::formats
