// File paths named by requests: each must resolve (symbolic links and ".." followed)
// to a regular file under one of the configured roots, so that a client cannot make
// the daemon read /etc/shadow or a FIFO that blocks it forever.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace zkpipe::service {

class PathPolicy {
 public:
  // Roots are resolved once, now; a root that does not exist is an error (ConfigError).
  explicit PathPolicy(const std::vector<std::filesystem::path>& roots);

  // The canonical path of `requested`. Throws ServiceError: invalid_argument for a
  // relative, empty or missing path or a non-regular file; permission_denied for
  // one outside the roots. `what` names the file in the messages.
  std::filesystem::path confine(const std::string& requested, std::string_view what = "parameter file") const;
  const std::vector<std::filesystem::path>& roots() const { return roots_; }

 private:
  std::vector<std::filesystem::path> roots_;
};

}  // namespace zkpipe::service
