#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

#include "io/file_error.hpp"

namespace zkpipe::io {

namespace {

std::string system_reason(const std::string& what, int err) { return what + ": " + std::strerror(err); }

// A temporary taken over from a writer that died can be renamed away by a writer
// that held it meanwhile; each such race costs one retry, and more than this many in
// a row means something keeps replacing the file.
constexpr int kMaxTakeoverAttempts = 16;

}  // namespace

AtomicFile::AtomicFile(std::filesystem::path path)
    : path_(std::move(path)), temporary_path_(path_.string() + ".partial") {
  const std::filesystem::path name = path_.filename();
  if (name.empty() || name == "." || name == "..") throw FileError(path_.string(), "cannot write: names no file");
  directory_path_ = path_.has_parent_path() ? path_.parent_path() : std::filesystem::path(".");
  // The file, the rename and the directory sync all go through this one descriptor,
  // so that they concern one directory even if its path is renamed meanwhile.
  directory_ = FileDescriptor(::open(directory_path_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!directory_.valid()) {
    throw FileError(directory_path_.string(),
                    system_reason("cannot open the directory to write " + name.string(), errno));
  }
  const std::string temporary_name = temporary_path_.filename().string();
  for (int attempt = 0; attempt < kMaxTakeoverAttempts; ++attempt) {
    // No O_TRUNC: the file may be another writer's, being written now. O_NOFOLLOW: a
    // planted link does not redirect the write; O_NONBLOCK: a planted FIFO does not block.
    FileDescriptor fd(::openat(directory_.get(), temporary_name.c_str(),
                               O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666));
    if (!fd.valid()) throw FileError(temporary_path_.string(), system_reason("cannot create", errno));
    struct stat held {};
    if (::fstat(fd.get(), &held) != 0) throw FileError(temporary_path_.string(), system_reason("cannot stat", errno));
    if (!S_ISREG(held.st_mode)) throw FileError(temporary_path_.string(), "cannot write: not a regular file");
    if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      if (err == EWOULDBLOCK) {
        throw FileError(temporary_path_.string(),
                        "cannot write: another process is writing " + path_.string() + " now");
      }
      throw FileError(temporary_path_.string(), system_reason("cannot lock", err));
    }
    // The lock is on what was opened; it counts only if that is still the file the
    // name holds (the writer before may have renamed or removed it meanwhile).
    struct stat named {};
    if (::fstatat(directory_.get(), temporary_name.c_str(), &named, AT_SYMLINK_NOFOLLOW) != 0 ||
        named.st_dev != held.st_dev || named.st_ino != held.st_ino) {
      continue;
    }
    if (::ftruncate(fd.get(), 0) != 0) {
      throw FileError(temporary_path_.string(), system_reason("cannot truncate", errno));
    }
    file_ = std::move(fd);
    return;
  }
  throw FileError(temporary_path_.string(), "cannot write: the file kept being replaced while it was opened");
}

AtomicFile::~AtomicFile() {
  // Removed while still locked, so that no other writer is using it.
  if (!committed_ && file_.valid()) ::unlinkat(directory_.get(), temporary_path_.filename().c_str(), 0);
}

void AtomicFile::write(std::span<const std::uint8_t> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(file_.get(), bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FileError(temporary_path_.string(), system_reason("write failed", errno));
    if (n == 0) throw FileError(temporary_path_.string(), "write failed: no progress");
    bytes = bytes.subspan(static_cast<std::size_t>(n));
    size_ += static_cast<std::uint64_t>(n);
  }
}

void AtomicFile::write(std::string_view bytes) {
  write(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

void AtomicFile::write_zeros(std::uint64_t count) {
  static constexpr std::array<std::uint8_t, 1 << 16> kZeros{};
  while (count > 0) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(count, kZeros.size()));
    write(std::span(kZeros).first(n));
    count -= n;
  }
}

void AtomicFile::overwrite(std::uint64_t offset, std::span<const std::uint8_t> bytes) {
  if (offset > size_ || bytes.size() > size_ - offset) {
    throw std::out_of_range(temporary_path_.string() + ": overwrite past the " + std::to_string(size_) +
                            " bytes written");
  }
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(file_.get(), bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FileError(temporary_path_.string(), system_reason("write failed", errno));
    if (n == 0) throw FileError(temporary_path_.string(), "write failed: no progress");
    bytes = bytes.subspan(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
}

void AtomicFile::commit() {
  if (::fsync(file_.get()) != 0) throw FileError(temporary_path_.string(), system_reason("cannot sync", errno));
  // Renamed while still locked: a writer that opened the temporary before the rename
  // finds, once it holds the lock, that the name no longer holds that file.
  if (::renameat(directory_.get(), temporary_path_.filename().c_str(), directory_.get(),
                 path_.filename().c_str()) != 0) {
    throw FileError(path_.string(), system_reason("cannot rename " + temporary_path_.string() + " into place", errno));
  }
  committed_ = true;
  // Closing after a successful fsync reports nothing more about the data.
  file_.reset();
  // EINVAL: a file system that cannot sync a directory (some FUSE ones) orders its
  // metadata without being asked.
  if (::fsync(directory_.get()) != 0 && errno != EINVAL) {
    throw FileError(directory_path_.string(),
                    system_reason("cannot sync the directory after renaming " + path_.filename().string() + " into it",
                                  errno));
  }
}

void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  AtomicFile file(path);
  file.write(bytes);
  file.commit();
}

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  AtomicFile file(path);
  file.write(bytes);
  file.commit();
}

}  // namespace zkpipe::io
