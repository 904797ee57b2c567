// The io layer's one error: a file that cannot be opened, examined or mapped, or that
// changed under a mapping. The layers above turn it into their own error types
// (FormatError, ParameterFileError, …) with the same text.
#pragma once

#include <stdexcept>
#include <string>

namespace zkpipe::io {

class FileError : public std::runtime_error {
 public:
  // what(): "<file>: <reason>".
  FileError(const std::string& file, const std::string& reason)
      : std::runtime_error(file + ": " + reason), file_(file), reason_(reason) {}

  const std::string& file() const { return file_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_;
  std::string reason_;
};

}  // namespace zkpipe::io
