#include "formats/excerpt.hpp"

namespace zkpipe::formats {

std::string excerpt(std::string_view text, std::size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  return std::string(text.substr(0, max_chars)) + "… (" + std::to_string(text.size() - max_chars) +
         " more characters)";
}

}  // namespace zkpipe::formats
