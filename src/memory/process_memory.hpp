// The process's own view of its memory, read from /proc/self, to reconcile the
// ledger with: untracked = RSS − baseline − tracked. (Device memory is reconciled
// with what CUDA reports instead: gpu/device_memory.hpp.)
#pragma once

#include <cstddef>

namespace zkpipe::memory {

// Resident set size now (from /proc/self/statm: cheap enough for every hook).
std::size_t resident_bytes();
// The peak resident set size (VmHWM in /proc/self/status).
std::size_t peak_resident_bytes();
// Restarts VmHWM from the current RSS (writes "5" to /proc/self/clear_refs), so that
// back-to-back runs in one process each get their own peak. False if the kernel
// refused (the peak then stays process-wide).
bool reset_peak_resident();
// MemAvailable from /proc/meminfo; 0 if unknown.
std::size_t available_memory_bytes();

}  // namespace zkpipe::memory
