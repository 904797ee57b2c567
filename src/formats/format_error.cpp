#include "formats/format_error.hpp"

namespace zkpipe::formats {

namespace {

std::string compose(const std::string& file, const std::string& message, std::optional<std::uint32_t> section,
                    std::optional<std::uint64_t> offset) {
  std::string where = file;
  if (section) where += ": section " + std::to_string(*section);
  if (offset) where += (section ? " at offset " : ": at offset ") + std::to_string(*offset);
  return where + ": " + message;
}

}  // namespace

FormatError::FormatError(const std::string& file, const std::string& message, std::optional<std::uint32_t> section,
                         std::optional<std::uint64_t> offset)
    : std::runtime_error(compose(file, message, section, offset)), file_(file), section_(section), offset_(offset) {}

}  // namespace zkpipe::formats
