// Reads past the end of a file that shrank under its mapping: the kernel answers them
// with SIGBUS, which by default kills the process — a daemon holding a parameter file
// that an operator truncates would die with every job it runs.
//
// install_mapping_fault_handler() installs, once per process, a SIGBUS handler that
// repairs such a fault when it falls inside a mapping registered by a FaultGuard: the
// pages from the faulting one to the end of the mapping are replaced by anonymous
// zero pages (mmap MAP_FIXED), the guard records the damage, and the read resumes and
// sees zeros. Whoever used the mapping asks the guard afterwards (damage()) and
// refuses what it computed from it. A fault anywhere else goes to the handler that
// was installed before, or takes SIGBUS's default action (a core dump), as without
// this handler.
//
// The registry of guarded mappings is process-wide state, like the buffer ledger,
// because a signal handler has no other way to find it: a fixed array of slots that
// the handler reads without locks (a sequence number per slot tells it a slot being
// rewritten), written under a mutex by guards being made and destroyed. Its size
// bounds how many files may be mapped at once.
#pragma once

#include <cstddef>
#include <optional>

namespace zkpipe::io {

// How many mappings may be guarded at once.
inline constexpr std::size_t kMaxGuardedMappings = 1024;

// Safe to call more than once and from several threads; the first call installs.
// Throws std::system_error when sigaction fails.
void install_mapping_fault_handler();
// Whether it has been installed in this process.
bool mapping_fault_handler_installed();

class FaultGuard {
 public:
  // Registers [start, start + bytes), which must begin on a page boundary (as mmap
  // returns it). Throws std::length_error when kMaxGuardedMappings
  // mappings are already guarded.
  FaultGuard(const void* start, std::size_t bytes);
  FaultGuard(const FaultGuard&) = delete;
  FaultGuard& operator=(const FaultGuard&) = delete;
  ~FaultGuard();

  // The offset (from start) of the lowest page a read faulted on; nullopt while none did.
  std::optional<std::size_t> damage() const;

 private:
  std::optional<std::size_t> slot_;  // none for an empty range
};

}  // namespace zkpipe::io
