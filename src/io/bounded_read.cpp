#include "io/bounded_read.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/file_error.hpp"
#include "io/read_only_file.hpp"

namespace zkpipe::io {

std::string read_bounded_file(const std::filesystem::path& path, std::size_t max_bytes, const std::string& what) {
  const auto file = ReadOnlyFile::open(path);  // refuses what is not a regular file, without blocking
  const std::uint64_t size = file->identity().size;
  if (size > max_bytes) {
    throw FileError(file->name(), std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) + " a " +
                                      what + " can hold");
  }
  // One byte past the size seen: a file that grows meanwhile is refused, not read without end.
  std::string bytes(static_cast<std::size_t>(size) + 1, '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(file->fd(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FileError(file->name(), std::string("read failed: ") + std::strerror(errno));
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  if (done > size) throw FileError(file->name(), "the file grew while it was read");
  bytes.resize(done);
  return bytes;
}

}  // namespace zkpipe::io
