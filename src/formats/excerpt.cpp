#include "formats/file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "formats/file_descriptor.hpp"
#include "formats/format_error.hpp"

namespace zkpipe::formats {

std::string read_bounded_file(const std::filesystem::path& path, std::size_t max_bytes, const std::string& what) {
  const std::string name = path.string();
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) throw FormatError(name, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw FormatError(name, std::string("cannot stat: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw FormatError(name, "not a regular file (a " + what + " must be one)");
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size > max_bytes) {
    throw FormatError(name, std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) + " a " +
                                what + " can hold");
  }
  // Read one byte past the size seen: a file that grows meanwhile is refused, not read without end.
  std::string bytes(size + 1, '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FormatError(name, std::string("read failed: ") + std::strerror(errno));
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  if (done > size) throw FormatError(name, "the file grew while it was read");
  bytes.resize(done);
  return bytes;
}

void write_file_atomically(const std::filesystem::path& path, std::string_view bytes) {
  const std::filesystem::path tmp = path.string() + ".partial";
  try {
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out) throw FormatError(tmp.string(), "cannot create");
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      if (!out.flush()) throw FormatError(tmp.string(), "write failed (disk full?)");
    }
    std::filesystem::rename(tmp, path);
  } catch (...) {
    // A failed write leaves nothing behind.
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
}

std::string excerpt(std::string_view text, std::size_t max_chars) {
  if (text.size() <= max_chars) return std::string(text);
  return std::string(text.substr(0, max_chars)) + "… (" + std::to_string(text.size() - max_chars) +
         " more characters)";
}

}  // namespace zkpipe::formats
