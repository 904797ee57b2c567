#include "memory/allocator.hpp"

#include <malloc.h>

#include <algorithm>
#include <thread>

namespace zkpipe::memory {

bool tune_allocator() {
  const int arenas = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
  constexpr int kThreshold = static_cast<int>(kMallocMmapThreshold);
  // mallopt returns 1 on success.
  return mallopt(M_MMAP_THRESHOLD, kThreshold) == 1 && mallopt(M_TRIM_THRESHOLD, kThreshold) == 1 &&
         mallopt(M_ARENA_MAX, arenas) == 1;
}

std::size_t malloc_heap_bytes() { return mallinfo2().arena; }

}  // namespace zkpipe::memory
