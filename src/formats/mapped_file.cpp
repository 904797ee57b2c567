#include "formats/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "formats/format_error.hpp"

namespace zkpipe::formats {

namespace {

// Closes the descriptor on every path out of open(); the mapping outlives it.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path& path) {
  const std::string name = path.string();
  FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) throw FormatError(name, std::string("cannot open: ") + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw FormatError(name, std::string("cannot stat: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw FormatError(name, "not a regular file");
  const auto size = static_cast<std::size_t>(st.st_size);
  const std::uint8_t* data = nullptr;
  if (size > 0) {
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd.get(), 0);
    if (p == MAP_FAILED) throw FormatError(name, std::string("cannot map: ") + std::strerror(errno));
    data = static_cast<const std::uint8_t*>(p);
  }
  return std::shared_ptr<const MappedFile>(new MappedFile(name, data, size));
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

}  // namespace zkpipe::formats
