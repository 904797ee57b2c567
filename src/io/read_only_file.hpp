// A regular file opened read-only, held open by its owners: what a descriptor names
// does not change when the path is later renamed, replaced or re-linked, so a caller
// that checked a file once can keep using exactly that file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "io/directory.hpp"

namespace zkpipe::io {

// Which file, and which version of it, as far as stat(2) tells.
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;

  bool same_file(const FileIdentity& o) const { return device == o.device && inode == o.inode; }
  bool operator==(const FileIdentity&) const = default;
};

// What differs from `before` to `after`, for an error message: "size 4096 → 0",
// "modified in place (size 4096)" or "replaced by another file".
std::string describe_change(const FileIdentity& before, const FileIdentity& after);

class ReadOnlyFile {
 public:
  // Opens `path`, following symbolic links. Throws FileError for a file that cannot be
  // opened or is not a regular file (a FIFO is refused without waiting for a writer).
  static std::shared_ptr<const ReadOnlyFile> open(const std::filesystem::path& path);
  // Opens `relative` inside `root` without following any symbolic link and without
  // leaving `root` (openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), so that what
  // is opened is a path already resolved and checked, whatever is planted or swapped
  // along it afterwards. Throws FileError naming root / relative.
  static std::shared_ptr<const ReadOnlyFile> open_beneath(const Directory& root, const std::filesystem::path& relative);

  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;
  ~ReadOnlyFile();

  int fd() const { return fd_; }
  const std::string& name() const { return name_; }
  // As it was when opened.
  const FileIdentity& identity() const { return identity_; }
  // As it is now (fstat on the descriptor). Throws FileError.
  FileIdentity current() const;

 private:
  // Takes `fd` (closed here on every path); refuses what is not a regular file.
  ReadOnlyFile(int fd, std::string name);

  int fd_;
  std::string name_;
  FileIdentity identity_;
};

}  // namespace zkpipe::io
