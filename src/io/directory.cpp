#include "io/directory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "io/file_error.hpp"

namespace zkpipe::io {

Directory::Directory(std::filesystem::path path)
    : path_(std::move(path)), fd_(::open(path_.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC)) {
  if (fd_ < 0) throw FileError(path_.string(), std::string("cannot open the directory: ") + std::strerror(errno));
}

Directory::~Directory() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace zkpipe::io
