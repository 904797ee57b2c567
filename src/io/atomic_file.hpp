// The one way an output file is written: under a temporary name beside it, then
// renamed over it once whole and on disk, so that a reader finds either the old file
// or the complete new one, never a prefix, and a crash or power loss after commit()
// returns cannot take the new file back.
//
// The temporary is `<path>.partial`. It is locked (flock) while written: a second
// writer of the same file at the same time is refused instead of interleaving its
// bytes with the first's, and a `.partial` left by a writer that died (its lock went
// with it) is reused and overwritten by the next one.
//
// Writes go straight to the file (no buffer here): callers write in large pieces,
// and a file larger than memory (a 47 GiB parameter file) streams through.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>

#include "io/file_descriptor.hpp"

namespace zkpipe::io {

class AtomicFile {
 public:
  // Creates (or takes over) `<path>.partial`, empty. Throws FileError naming the file:
  // a path naming no file, a directory that cannot be opened, a temporary that cannot
  // be created or is not a regular file, or one another writer holds now.
  explicit AtomicFile(std::filesystem::path path);
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  // Removes the temporary unless committed: an abandoned write leaves the target as
  // it was (absent, or the old file) and nothing beside it.
  ~AtomicFile();

  // Appends. Throws FileError naming the temporary with the system's reason (disk full, …).
  void write(std::span<const std::uint8_t> bytes);
  void write(std::string_view bytes);
  void write_zeros(std::uint64_t count);
  // Replaces bytes written already (a header whose checksums are known only once the
  // rest is written); the size does not change. Throws FileError as write() does, or
  // std::out_of_range for bytes past size().
  void overwrite(std::uint64_t offset, std::span<const std::uint8_t> bytes);

  // Bytes written so far.
  std::uint64_t size() const { return size_; }
  const std::filesystem::path& path() const { return path_; }
  const std::filesystem::path& temporary_path() const { return temporary_path_; }

  // Syncs the file, renames it over path(), then syncs the directory, so that the
  // rename is on disk too. Throws FileError naming the file that failed; the
  // temporary is removed unless the rename happened.
  void commit();

 private:
  std::filesystem::path path_;
  std::filesystem::path temporary_path_;
  std::filesystem::path directory_path_;
  FileDescriptor directory_;
  FileDescriptor file_;  // holds the lock on the temporary until committed or abandoned
  std::uint64_t size_ = 0;
  bool committed_ = false;
};

// `bytes` as the whole of the file at `path`, through an AtomicFile.
void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace zkpipe::io
