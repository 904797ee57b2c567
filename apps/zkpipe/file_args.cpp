#include "file_args.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace zkpipe::cli {

namespace {

namespace fs = std::filesystem;

// The path a name stands for, symbolic links in its existing part followed: relative
// to the working directory, so that "x.json" and "./x.json" compare equal before either exists.
fs::path normalized(const std::string& name, std::error_code& ec) {
  const fs::path absolute = fs::absolute(name, ec);
  return ec ? fs::path() : fs::weakly_canonical(absolute, ec);
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec)) return true;
  std::error_code ec_b;
  const fs::path na = normalized(a, ec);
  return !ec && na == normalized(b, ec_b) && !ec_b;
}

}  // namespace

void refuse_overwriting_inputs(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].empty()) continue;
    for (const std::string& in : inputs) {
      if (!in.empty() && same_file(outputs[i], in)) {
        throw std::invalid_argument("refusing to write " + outputs[i] + ": it is the input file " + in);
      }
    }
    for (std::size_t j = 0; j < i; ++j) {
      if (!outputs[j].empty() && same_file(outputs[i], outputs[j])) {
        throw std::invalid_argument("two outputs name the same file: " + outputs[j] + " and " + outputs[i]);
      }
    }
  }
}

std::string output_problem(const std::string& name) {
  if (name.empty()) return "an empty name: expected a file to write";
  std::error_code ec;
  if (fs::is_directory(name, ec) || name.back() == '/') return name + " names a directory: expected a file to write";
  const fs::path parent = fs::path(name).has_parent_path() ? fs::path(name).parent_path() : fs::path(".");
  if (!fs::exists(parent, ec)) return name + ": its directory " + parent.string() + " does not exist";
  if (!fs::is_directory(parent, ec)) return name + ": " + parent.string() + " is not a directory";
  if (fs::exists(name, ec) && !fs::is_regular_file(name, ec)) {
    return name + " exists and is not a regular file (a device, a pipe or a socket): expected a file to write";
  }
  // Outputs are written beside their name and renamed into place: the directory must
  // take a new file (which /proc/self, a read-only mount or a full disk's may not).
  std::string probe = (parent / ".zkpipe-write-check-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) {
    return name + ": cannot create a file in " + parent.string() + " (" + std::strerror(errno) + ")";
  }
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

CLI::Validator output_file() {
  return CLI::Validator([](const std::string& name) { return output_problem(name); }, "FILE");
}

}  // namespace zkpipe::cli
