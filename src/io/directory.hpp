// A directory held open (O_PATH) from the moment it was resolved: files opened beneath
// it (ReadOnlyFile::open_beneath) are found under this directory even if its path is
// later renamed or replaced by a link.
#pragma once

#include <filesystem>
#include <utility>

namespace zkpipe::io {

class Directory {
 public:
  // Throws FileError when `path` cannot be opened or is not a directory.
  explicit Directory(std::filesystem::path path);
  Directory(Directory&& o) noexcept : path_(std::move(o.path_)), fd_(std::exchange(o.fd_, -1)) {}
  Directory& operator=(Directory&&) = delete;
  Directory(const Directory&) = delete;
  Directory& operator=(const Directory&) = delete;
  ~Directory();

  const std::filesystem::path& path() const { return path_; }
  int fd() const { return fd_; }

 private:
  std::filesystem::path path_;
  int fd_;
};

}  // namespace zkpipe::io
