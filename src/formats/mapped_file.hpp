// A whole file mapped read-only into memory, unmapped with the last owner.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>

namespace zkpipe::formats {

class MappedFile {
 public:
  // Throws FormatError when the file cannot be opened or mapped.
  static std::shared_ptr<const MappedFile> open(const std::filesystem::path& path);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
  const std::string& name() const { return name_; }

 private:
  MappedFile(std::string name, const std::uint8_t* data, std::size_t size)
      : name_(std::move(name)), data_(data), size_(size) {}

  std::string name_;
  const std::uint8_t* data_;
  std::size_t size_;
};

}  // namespace zkpipe::formats
