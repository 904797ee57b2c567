#include "memory/process_memory.hpp"

#include <unistd.h>

#include <fstream>
#include <string>

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

}  // namespace zkpipe::memory
