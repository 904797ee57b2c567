#include "io/read_only_file.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/file_error.hpp"

namespace zkpipe::io {

namespace {

// O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused as not regular.
constexpr int kOpenFlags = O_RDONLY | O_CLOEXEC | O_NONBLOCK;

FileIdentity identity_of(const struct stat& st) {
  return {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
          static_cast<std::uint64_t>(st.st_size),
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

std::string system_reason(const char* what, int err) { return std::string(what) + ": " + std::strerror(err); }

}  // namespace

std::string describe_change(const FileIdentity& before, const FileIdentity& after) {
  if (!before.same_file(after)) return "replaced by another file";
  if (before.size != after.size) return "size " + std::to_string(before.size) + " → " + std::to_string(after.size);
  return "modified in place (size " + std::to_string(after.size) + ")";
}

ReadOnlyFile::ReadOnlyFile(int fd, std::string name) : fd_(fd), name_(std::move(name)) {
  struct stat st {};
  const bool stat_ok = ::fstat(fd_, &st) == 0;
  const int err = errno;
  if (!stat_ok || !S_ISREG(st.st_mode)) {
    ::close(fd_);  // the destructor does not run for a constructor that throws
    throw FileError(name_, stat_ok ? "not a regular file" : system_reason("cannot stat", err));
  }
  identity_ = identity_of(st);
}

ReadOnlyFile::~ReadOnlyFile() { ::close(fd_); }

std::shared_ptr<const ReadOnlyFile> ReadOnlyFile::open(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), kOpenFlags);
  if (fd < 0) throw FileError(path.string(), system_reason("cannot open", errno));
  return std::shared_ptr<const ReadOnlyFile>(new ReadOnlyFile(fd, path.string()));
}

std::shared_ptr<const ReadOnlyFile> ReadOnlyFile::open_beneath(const Directory& root,
                                                               const std::filesystem::path& relative) {
  const std::string name = (root.path() / relative).string();
  open_how how{};
  how.flags = kOpenFlags;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  // glibc 2.36 has no wrapper for openat2.
  const int fd = static_cast<int>(::syscall(SYS_openat2, root.fd(), relative.c_str(), &how, sizeof how));
  const int err = errno;
  if (fd < 0) {
    // ELOOP: a symbolic link on the path; EXDEV: a way out of the root.
    throw FileError(name, err == ELOOP || err == EXDEV
                              ? "cannot open: the path changed after it was checked (a symbolic link or a way "
                                "out of " + root.path().string() + " appeared on it)"
                              : system_reason("cannot open", err));
  }
  return std::shared_ptr<const ReadOnlyFile>(new ReadOnlyFile(fd, name));
}

FileIdentity ReadOnlyFile::current() const {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) throw FileError(name_, system_reason("cannot stat", errno));
  return identity_of(st);
}

}  // namespace zkpipe::io
