#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace zkpipe::memory {

// The tightest memory limit of this process's cgroups: a container or a systemd
// unit (MemoryMax=) caps a process far below what /proc/meminfo says is available,
// and the kernel's OOM killer, not an allocation failure, is what reaches it.
struct CgroupMemory {
  std::string cgroup;     // the level whose limit is tightest, as /proc/self/cgroup names it
  std::size_t limit = 0;  // memory.max (v2) or memory.limit_in_bytes (v1)
  std::size_t used = 0;   // its usage less the inactive file cache the kernel reclaims first
  std::size_t left() const { return limit > used ? limit - used : 0; }
};

// Walks the memory cgroup of this process (v2, or v1's memory controller) and every
// level above it to its hierarchy's root; nullopt when none sets a limit or the
// files cannot be read. `root` prefixes every path read (/proc/self/cgroup,
// /proc/self/mountinfo and the mount points it names): "/" on a real system.
std::optional<CgroupMemory> cgroup_memory_limit(const std::filesystem::path& root = "/");

}  // namespace zkpipe::memory
