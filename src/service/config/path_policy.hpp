// File paths named by requests: each must resolve (symbolic links and ".." followed)
// to a regular file under one of the configured roots, so that a client cannot make
// the daemon read /etc/shadow or a FIFO that blocks it forever.
//
// A path checked is a path that can change before it is read (a link swapped to
// point elsewhere). So files are opened, not named: open() resolves and checks the
// path, then opens the resolved path beneath its root without following any link
// (io::ReadOnlyFile::open_beneath), and the descriptor is what is read. A job keeps
// the identity of the file it was checked with (reopen) rather than a descriptor per
// queued job.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/directory.hpp"
#include "io/read_only_file.hpp"

namespace zkpipe::service::config {

class PathPolicy {
 public:
  // Roots are resolved once, now; a root that does not exist is an error (ConfigError).
  explicit PathPolicy(const std::vector<std::filesystem::path>& roots);

  // The canonical path of `requested`. Throws ServiceError: invalid_argument for a
  // relative, empty or missing path or a non-regular file; permission_denied for
  // one outside the roots. `what` names the file in the messages.
  std::filesystem::path confine(const std::string& requested, std::string_view what = "parameter file") const;
  // The file at confine(requested), opened; its name is that canonical path. Throws
  // as confine does, and ServiceError invalid_argument when the path changed between
  // the check and the open or the file cannot be read.
  std::shared_ptr<const io::ReadOnlyFile> open(const std::string& requested,
                                               std::string_view what = "parameter file") const;
  // open(), and the file must be `checked` (the same inode, found when the job was
  // submitted): ServiceError failed_precondition otherwise. No check when null.
  std::shared_ptr<const io::ReadOnlyFile> reopen(const std::string& requested,
                                                 const std::optional<io::FileIdentity>& checked,
                                                 std::string_view what = "parameter file") const;
  const std::vector<std::filesystem::path>& roots() const { return roots_; }

 private:
  std::vector<std::filesystem::path> roots_;
  std::vector<io::Directory> root_directories_;  // roots_, opened when resolved
};

}  // namespace zkpipe::service::config
