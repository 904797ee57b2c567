#include "service/config/path_policy.hpp"

#include <algorithm>

#include "formats/excerpt.hpp"
#include "io/file_error.hpp"
#include "service/config/config.hpp"
#include "service/errors.hpp"

namespace zkpipe::service::config {

namespace {

bool is_under(const std::filesystem::path& path, const std::filesystem::path& root) {
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p) {
    if (r->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *r) return false;
  }
  return true;
}

}  // namespace

PathPolicy::PathPolicy(const std::vector<std::filesystem::path>& roots) {
  for (const auto& root : roots) {
    std::error_code ec;
    const auto canonical = std::filesystem::canonical(root, ec);
    if (ec || !std::filesystem::is_directory(canonical)) {
      throw ConfigError("parameter root " + root.string() + " is not a directory");
    }
    roots_.push_back(canonical);
    try {
      root_directories_.emplace_back(canonical);
    } catch (const io::FileError& e) {
      throw ConfigError("parameter root " + root.string() + ": " + e.reason());
    }
  }
}

std::filesystem::path PathPolicy::confine(const std::string& requested, std::string_view what) const {
  const std::string shown = formats::excerpt(requested, 200);
  const std::string name(what);
  if (requested.empty()) throw ServiceError(ErrorKind::invalid_argument, "no " + name + " given");
  if (requested.find('\0') != std::string::npos) {
    throw ServiceError(ErrorKind::invalid_argument, name + " path contains a NUL byte");
  }
  const std::filesystem::path path(requested);
  if (!path.is_absolute()) {
    throw ServiceError(ErrorKind::invalid_argument, name + " '" + shown + "' must be an absolute path");
  }
  // Checked lexically first, so that a path outside the roots is refused without
  // telling the client whether it exists.
  const auto lexical = path.lexically_normal();
  if (std::none_of(roots_.begin(), roots_.end(), [&](const auto& r) { return is_under(lexical, r); })) {
    throw ServiceError(ErrorKind::permission_denied, name + " '" + shown + "' is outside the allowed roots");
  }
  std::error_code ec;
  const auto canonical = std::filesystem::canonical(path, ec);
  if (ec) throw ServiceError(ErrorKind::invalid_argument, name + " '" + shown + "': " + ec.message());
  // After links are followed, again: a link under a root may point outside it.
  if (std::none_of(roots_.begin(), roots_.end(), [&](const auto& r) { return is_under(canonical, r); })) {
    throw ServiceError(ErrorKind::permission_denied, name + " '" + shown + "' is outside the allowed roots");
  }
  if (!std::filesystem::is_regular_file(canonical, ec)) {
    throw ServiceError(ErrorKind::invalid_argument, name + " '" + shown + "' is not a regular file");
  }
  return canonical;
}

std::shared_ptr<const io::ReadOnlyFile> PathPolicy::open(const std::string& requested, std::string_view what) const {
  const std::filesystem::path canonical = confine(requested, what);
  for (std::size_t i = 0; i < roots_.size(); ++i) {
    if (!is_under(canonical, roots_[i])) continue;
    try {
      return io::ReadOnlyFile::open_beneath(root_directories_[i], canonical.lexically_relative(roots_[i]));
    } catch (const io::FileError& e) {
      throw ServiceError(ErrorKind::invalid_argument, std::string(what) + " '" + formats::excerpt(requested, 200) +
                                                          "': " + formats::excerpt(e.reason(), 300));
    }
  }
  // confine() found it under a root.
  throw ServiceError(ErrorKind::permission_denied,
                     std::string(what) + " '" + formats::excerpt(requested, 200) + "' is outside the allowed roots");
}

std::shared_ptr<const io::ReadOnlyFile> PathPolicy::reopen(const std::string& requested,
                                                           const std::optional<io::FileIdentity>& checked,
                                                           std::string_view what) const {
  auto file = open(requested, what);
  if (checked && !file->identity().same_file(*checked)) {
    throw ServiceError(ErrorKind::failed_precondition,
                       std::string(what) + " '" + formats::excerpt(requested, 200) +
                           "' now names another file than the one checked when the job was submitted");
  }
  return file;
}

}  // namespace zkpipe::service::config
