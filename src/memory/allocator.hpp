// The C allocator's settings and its own figures. glibc's malloc keeps freed memory
// in its arenas, and by default raises its mmap threshold to the size of the last
// large block freed (up to 32 MiB), so that after the first partition the witness
// vectors come from the arenas and stay resident when freed: RSS then no longer
// follows the ledger. tune_allocator() fixes the threshold so that every large block
// is its own mapping, returned to the system when freed.
#pragma once

#include <cstddef>

namespace zkpipe::memory {

// Blocks of at least this many bytes are mmap'ed by malloc (and unmapped when
// freed) once tune_allocator() has run; smaller ones come from the arenas.
inline constexpr std::size_t kMallocMmapThreshold = std::size_t{1} << 20;

// Process-wide malloc settings (mallopt): the fixed mmap threshold above; a trim
// threshold of the same size, so that free memory at an arena's top goes back to
// the system; at most one arena per hardware thread, so that free lists are not
// spread over the default 8 arenas per core. Call it first thing in main(), before
// threads start. Returns false if malloc refused a setting.
bool tune_allocator();

// Bytes malloc's arenas hold from the system (in use and free, blocks below the mmap
// threshold): mallinfo2's arena. Large mmap'ed blocks are not in it.
std::size_t malloc_heap_bytes();

}  // namespace zkpipe::memory
