// The one error type of the formats layer: every problem found in an input file
// names the file and, where it applies, the section and byte offset.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace zkpipe::formats {

class FormatError : public std::runtime_error {
 public:
  // "<file>: section <section> at offset <offset>: <message>" with the parts that are known.
  FormatError(const std::string& file, const std::string& message, std::optional<std::uint32_t> section = {},
              std::optional<std::uint64_t> offset = {});

  const std::string& file() const { return file_; }
  std::optional<std::uint32_t> section() const { return section_; }
  std::optional<std::uint64_t> offset() const { return offset_; }

 private:
  std::string file_;
  std::optional<std::uint32_t> section_;
  std::optional<std::uint64_t> offset_;
};

}  // namespace zkpipe::formats
