// The process's own view of its memory, read from /proc/self, to reconcile the
// ledger with:
//
//   untracked = RSS − baseline RSS − tracked − runtime growth
//
// where the runtime is what any process of this program holds whatever it proves,
// measured at every sample, not estimated: the resident pages of its code (the
// executable and shared libraries) and malloc's heap of small blocks; its growth is
// the difference to its value at the baseline. (Device memory is reconciled with what
// CUDA reports instead: gpu/device_memory.hpp.)
#pragma once

#include <pthread.h>

#include <cstddef>
#include <string>
#include <optional>
#include <span>

namespace zkpipe::memory {

// A range of the process's address space (a view into a mapped file).
struct AddressRange {
  const void* base = nullptr;
  std::size_t bytes = 0;
};

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

// What this process may still take: MemAvailable, or less where an address-space
// limit (RLIMIT_AS) leaves less above the current mappings or a memory cgroup's limit
// leaves less above its use (memory/cgroup_memory.hpp).
struct UsableMemory {
  std::size_t bytes = 0;  // 0 if unknown
  std::string bound;      // what sets it, for a message: "MemAvailable", "the address-space limit", …
};
UsableMemory usable_memory();

// Gives the heap's free pages back to the system (malloc_trim): glibc keeps what a
// large refused request was parsed into in its arenas, where a daemon would carry it
// (3.5 GB after one 114 MiB C1 output).
void release_free_heap();

// Resident bytes of the executable images mapped into the process: every file it maps
// with execute permission (the program, its shared libraries), all their segments
// (code, read-only data, and their data pages). Data files mapped without execute
// permission (parameter files, evaluators) are not in it: the ledger counts those.
// Reads /proc/self/maps and the pagemap of those files' ranges; 0 if it cannot.
std::size_t code_resident_bytes();

// How many bytes of the ranges' pages are mapped into this process now — the part
// of a mapped file that RSS counts: pages touched and not reclaimed since, whatever
// else the page cache holds of the file. Whole pages: a range's partial first and
// last pages count in full. Reads /proc/self/pagemap (8 bytes per page of the
// ranges); nullopt if it cannot.
std::optional<std::size_t> present_bytes(std::span<const AddressRange> ranges);

// The stack of a running thread of this process (pthread_getattr_np); nullopt if the
// library cannot tell.
std::optional<AddressRange> thread_stack(pthread_t thread);

struct RuntimeMemory {
  std::size_t code = 0;  // code_resident_bytes()
  std::size_t heap = 0;  // malloc_heap_bytes(): blocks below the mmap threshold, and free lists

  std::size_t total() const { return code + heap; }
  static RuntimeMemory now();
};

// The process before it loads parameters or proves: what untracked memory is
// measured from.
struct MemoryBaseline {
  std::size_t rss = 0;
  RuntimeMemory runtime;

  static MemoryBaseline now();
};

// RSS − baseline.rss − tracked − (runtime − baseline.runtime.total()), signed: the
// resident bytes that neither the ledger nor the runtime explains.
double untracked_bytes(std::size_t rss, std::size_t tracked, std::size_t runtime, const MemoryBaseline& baseline);

}  // namespace zkpipe::memory
