#include "memory/process_memory.hpp"

#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cerrno>
#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "memory/allocator.hpp"
#include "memory/cgroup_memory.hpp"

namespace zkpipe::memory {

namespace {

// The value of a "Key:   123 kB" line of a /proc file, in bytes; 0 if absent.
std::size_t proc_kib_field(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) == 0 && line.size() > key.size() && line[key.size()] == ':') {
      return std::stoull(line.substr(key.size() + 1)) * 1024;
    }
  }
  return 0;
}

// A read-only descriptor, closed with its scope (formats::FileDescriptor sits in a
// layer above this one, which depends on nothing).
class ReadOnlyFd {
 public:
  explicit ReadOnlyFd(const char* path) : fd_(::open(path, O_RDONLY | O_CLOEXEC)) {}
  ReadOnlyFd(const ReadOnlyFd&) = delete;
  ReadOnlyFd& operator=(const ReadOnlyFd&) = delete;
  ~ReadOnlyFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::size_t resident_bytes() {
  std::ifstream in("/proc/self/statm");
  std::size_t total_pages = 0;
  std::size_t resident_pages = 0;
  in >> total_pages >> resident_pages;
  return resident_pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

std::size_t peak_resident_bytes() { return proc_kib_field("/proc/self/status", "VmHWM"); }

bool reset_peak_resident() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

std::size_t available_memory_bytes() { return proc_kib_field("/proc/meminfo", "MemAvailable"); }

std::optional<std::size_t> present_bytes(std::span<const AddressRange> ranges) {
  const ReadOnlyFd pagemap("/proc/self/pagemap");
  if (pagemap.get() < 0) return std::nullopt;
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  // Bit 63 of a page's entry: present in RAM (readable without privileges; only the
  // frame numbers are hidden).
  constexpr std::uint64_t kPresent = std::uint64_t{1} << 63;
  std::array<std::uint64_t, 4096> entries{};
  std::size_t present_pages = 0;
  for (const AddressRange& r : ranges) {
    if (r.bytes == 0) continue;
    const auto first = reinterpret_cast<std::uintptr_t>(r.base) / page;
    const auto last = (reinterpret_cast<std::uintptr_t>(r.base) + r.bytes - 1) / page;
    for (std::uintptr_t at = first; at <= last;) {
      const std::size_t want = std::min<std::uintptr_t>(entries.size(), last - at + 1);
      const ssize_t n = ::pread(pagemap.get(), entries.data(), want * sizeof(std::uint64_t),
                                static_cast<off_t>(at * sizeof(std::uint64_t)));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 || n % static_cast<ssize_t>(sizeof(std::uint64_t)) != 0) return std::nullopt;
      const std::size_t got = static_cast<std::size_t>(n) / sizeof(std::uint64_t);
      present_pages += static_cast<std::size_t>(
          std::count_if(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(got),
                        [](std::uint64_t e) { return (e & kPresent) != 0; }));
      at += got;
    }
  }
  return present_pages * page;
}

std::optional<AddressRange> thread_stack(pthread_t thread) {
  pthread_attr_t attr;
  if (pthread_getattr_np(thread, &attr) != 0) return std::nullopt;
  void* base = nullptr;
  std::size_t size = 0;
  const bool known = pthread_attr_getstack(&attr, &base, &size) == 0;
  pthread_attr_destroy(&attr);
  if (!known) return std::nullopt;
  return AddressRange{base, size};
}

std::size_t code_resident_bytes() {
  // From /proc/self/maps and the pagemap of the code's ranges alone: /proc/self/smaps
  // would walk the page tables of every mapping, tens of GiB of keys and witnesses
  // among them, and every hook asks.
  std::ifstream in("/proc/self/maps");
  if (!in) return 0;
  // Per mapped file: whether any of its mappings is executable, and its ranges.
  struct File {
    bool executable = false;
    std::vector<AddressRange> ranges;
  };
  std::map<std::string, File, std::less<>> files;
  for (std::string line; std::getline(in, line);) {
    // "start-end perms offset dev inode [path]"; anonymous mappings, [heap],
    // [stack], [vdso]… have no path.
    const std::size_t slash = line.find('/');
    const std::size_t dash = line.find('-');
    const std::size_t space = line.find(' ');
    if (slash == std::string::npos || dash == std::string::npos || space == std::string::npos || dash > space) {
      continue;
    }
    std::uintptr_t start = 0;
    std::uintptr_t end = 0;
    const char* text = line.data();
    if (std::from_chars(text, text + dash, start, 16).ec != std::errc{} ||
        std::from_chars(text + dash + 1, text + space, end, 16).ec != std::errc{} || end <= start) {
      continue;
    }
    File& file = files[line.substr(slash)];
    if (space + 3 < line.size() && line[space + 3] == 'x') file.executable = true;
    file.ranges.push_back({reinterpret_cast<const void*>(start), end - start});
  }
  std::vector<AddressRange> code;
  for (const auto& [path, file] : files) {
    if (file.executable) code.insert(code.end(), file.ranges.begin(), file.ranges.end());
  }
  return present_bytes(code).value_or(0);
}

RuntimeMemory RuntimeMemory::now() { return {code_resident_bytes(), malloc_heap_bytes()}; }

MemoryBaseline MemoryBaseline::now() {
  MemoryBaseline b;
  b.runtime = RuntimeMemory::now();
  b.rss = resident_bytes();
  return b;
}

double untracked_bytes(std::size_t rss, std::size_t tracked, std::size_t runtime, const MemoryBaseline& baseline) {
  const double growth = static_cast<double>(runtime) - static_cast<double>(baseline.runtime.total());
  return static_cast<double>(rss) - static_cast<double>(baseline.rss) - static_cast<double>(tracked) - growth;
}

UsableMemory usable_memory() {
  UsableMemory usable{available_memory_bytes(), "MemAvailable"};
  auto tighten = [&](std::size_t bytes, std::string bound) {
    if (usable.bytes == 0 || bytes < usable.bytes) usable = {bytes, std::move(bound)};
  };
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    std::ifstream in("/proc/self/statm");
    std::size_t total_pages = 0;
    in >> total_pages;
    const std::size_t mapped = total_pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    tighten(limit.rlim_cur > mapped ? static_cast<std::size_t>(limit.rlim_cur) - mapped : 0,
            "the address-space limit (ulimit -v)");
  }
  if (const auto cgroup = cgroup_memory_limit()) {
    tighten(cgroup->left(), "the memory limit of cgroup " + cgroup->cgroup);
  }
  return usable;
}

void release_free_heap() { ::malloc_trim(0); }

}  // namespace zkpipe::memory
