#include "memory/cgroup_memory.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

namespace zkpipe::memory {

namespace {

// v1 writes "no limit" as the largest page-aligned signed value; anything this
// large is no limit on a real machine.
constexpr std::uint64_t kNoLimit = std::uint64_t{1} << 60;

std::optional<std::uint64_t> number(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> file_number(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  return number(line);
}

// The value of a "key value" line of a memory.stat file; 0 when absent.
std::uint64_t stat_field(const std::filesystem::path& path, std::string_view key) {
  std::ifstream in(path);
  std::string name;
  std::uint64_t value = 0;
  while (in >> name >> value) {
    if (name == key) return value;
  }
  return 0;
}

struct Hierarchy {
  bool v2 = false;
  std::string path;  // the process's cgroup, as /proc/self/cgroup names it
};

struct Mount {
  bool v2 = false;
  std::string root;   // the cgroup the mount shows at its mount point
  std::string point;  // where it is mounted
};

std::vector<std::string> split(std::string_view text, char by) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t at = 0; at <= text.size(); ++at) {
    if (at == text.size() || text[at] == by) {
      out.emplace_back(text.substr(start, at - start));
      start = at + 1;
    }
  }
  return out;
}

std::vector<Hierarchy> memory_hierarchies(const std::filesystem::path& file) {
  std::vector<Hierarchy> out;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t first = line.find(':');
    const std::size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string id = line.substr(0, first);
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (id == "0" && controllers.empty()) {
      out.push_back({true, path});
    } else {
      for (const std::string& c : split(controllers, ',')) {
        if (c == "memory") out.push_back({false, path});
      }
    }
  }
  return out;
}

// mountinfo: "id parent major:minor root point options [optional…] - type source super-options".
std::vector<Mount> memory_mounts(const std::filesystem::path& file) {
  std::vector<Mount> out;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string w; fields >> w;) f.push_back(w);
    std::size_t dash = 6;
    while (dash < f.size() && f[dash] != "-") ++dash;
    if (dash + 1 >= f.size()) continue;
    const std::string& type = f[dash + 1];
    const std::string super_options = dash + 3 < f.size() ? f[dash + 3] : std::string();
    if (type == "cgroup2") {
      out.push_back({true, f[3], f[4]});
    } else if (type == "cgroup") {
      for (const std::string& o : split(super_options, ',')) {
        if (o == "memory") out.push_back({false, f[3], f[4]});
      }
    }
  }
  return out;
}

// The level's limit and use, when it sets a limit.
std::optional<CgroupMemory> level_limit(const std::filesystem::path& dir, bool v2, const std::string& name) {
  const auto limit = file_number(dir / (v2 ? "memory.max" : "memory.limit_in_bytes"));  // "max": none
  if (!limit || *limit >= kNoLimit) return std::nullopt;
  const auto usage = file_number(dir / (v2 ? "memory.current" : "memory.usage_in_bytes"));
  if (!usage) return std::nullopt;
  std::uint64_t inactive = stat_field(dir / "memory.stat", v2 ? "inactive_file" : "total_inactive_file");
  inactive = std::min(inactive, *usage);
  return CgroupMemory{name, static_cast<std::size_t>(*limit), static_cast<std::size_t>(*usage - inactive)};
}

}  // namespace

std::optional<CgroupMemory> cgroup_memory_limit(const std::filesystem::path& root) {
  auto under_root = [&](const std::string& absolute) { return root / std::filesystem::path(absolute).relative_path(); };
  const std::vector<Mount> mounts = memory_mounts(under_root("/proc/self/mountinfo"));
  std::optional<CgroupMemory> tightest;
  for (const Hierarchy& h : memory_hierarchies(under_root("/proc/self/cgroup"))) {
    for (const Mount& m : mounts) {
      if (m.v2 != h.v2) continue;
      // The part of the process's cgroup below what the mount shows.
      std::string below = h.path;
      if (m.root != "/") {
        if (below.compare(0, m.root.size(), m.root) != 0) continue;
        below = below.substr(m.root.size());
      }
      const std::filesystem::path top = under_root(m.point);
      const std::filesystem::path rel = std::filesystem::path(below).relative_path().lexically_normal();
      std::filesystem::path dir = rel.empty() || rel == "." ? top : top / rel;
      std::filesystem::path name = std::filesystem::path(h.path);
      for (;;) {
        const auto level = level_limit(dir, h.v2, name.string());
        if (level && (!tightest || level->left() < tightest->left())) tightest = level;
        if (dir == top || !dir.has_relative_path()) break;
        dir = dir.parent_path();
        name = name.parent_path();
      }
      break;
    }
  }
  return tightest;
}

}  // namespace zkpipe::memory
