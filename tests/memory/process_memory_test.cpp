#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "memory/allocator.hpp"
#include "memory/process_memory.hpp"

namespace zkpipe::memory {
namespace {

constexpr std::size_t kOneMiB = std::size_t{1} << 20;

void touch(std::vector<char>& v) {
  for (std::size_t i = 0; i < v.size(); i += 4096) v[i] = 1;
}

// With glibc's defaults this sequence leaves the blocks resident: freeing the 16 MiB
// block raises the mmap threshold to 16 MiB, so the 8 MiB blocks come from the main
// arena, and the small block after them keeps the arena from trimming them when freed.
TEST(Allocator, TunedMallocReturnsFreedLargeBlocks) {
  ASSERT_TRUE(tune_allocator());
  {
    std::vector<char> raise(16 * kOneMiB);
    touch(raise);
  }
  const std::size_t before = resident_bytes();
  {
    std::vector<std::vector<char>> blocks;
    for (int i = 0; i < 4; ++i) {
      blocks.emplace_back(8 * kOneMiB);
      touch(blocks.back());
    }
    auto pin = std::make_unique<std::uint64_t>(1);
    EXPECT_GE(resident_bytes(), before + 30 * kOneMiB);
    blocks.clear();
    EXPECT_LT(resident_bytes(), before + 2 * kOneMiB);
    EXPECT_EQ(*pin, 1u);
  }
}

TEST(Allocator, HeapCountsSmallBlocks) {
  ASSERT_TRUE(tune_allocator());
  const std::size_t before = malloc_heap_bytes();
  std::vector<std::unique_ptr<char[]>> small;
  for (int i = 0; i < 8192; ++i) small.push_back(std::make_unique<char[]>(1024));
  EXPECT_GE(malloc_heap_bytes(), before + 7 * kOneMiB);
}

// The reference for code_resident_bytes: the Rss lines of /proc/self/smaps summed
// over every mapping of each file that has an executable mapping.
std::size_t smaps_code_rss() {
  std::ifstream in("/proc/self/smaps");
  std::map<std::string, std::pair<bool, std::size_t>> files;  // path → executable, Rss
  std::pair<bool, std::size_t>* current = nullptr;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("Rss:")) {
      if (current != nullptr) current->second += std::stoull(line.substr(4)) * 1024;
      continue;
    }
    const std::size_t space = line.find(' ');
    if (space == std::string::npos || line.substr(0, space).find('-') == std::string::npos) continue;
    const std::size_t slash = line.find('/');
    current = slash == std::string::npos ? nullptr : &files[line.substr(slash)];
    if (current != nullptr && line[space + 3] == 'x') current->first = true;
  }
  std::size_t bytes = 0;
  for (const auto& [path, file] : files) {
    if (file.first) bytes += file.second;
  }
  return bytes;
}

// Read from the pagemap of the code's ranges instead of smaps, it is the same sum
// (pages can be faulted in between the reads: a page's worth of slack per 64 KiB).
TEST(ProcessMemory, CodeIsWhatSmapsCountsForTheExecutableFiles) {
  const std::size_t reference = smaps_code_rss();
  const std::size_t code = code_resident_bytes();
  const std::size_t after = smaps_code_rss();
  EXPECT_GT(reference, 256 * 1024u);
  EXPECT_GE(code + reference / 16, reference);
  EXPECT_LE(code, after + after / 16);
}

// A data file mapped read-only is resident once read but is not code; the test
// program's own code is.
TEST(ProcessMemory, CodeIsExecutableImagesNotMappedDataFiles) {
  const std::size_t code = code_resident_bytes();
  EXPECT_GT(code, 256 * 1024u);
  EXPECT_LT(code, resident_bytes());

  char path[] = "/tmp/zkpipe_code_test_XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  unlink(path);
  constexpr std::size_t kBytes = 8 * kOneMiB;
  ASSERT_EQ(ftruncate(fd, kBytes), 0);
  void* p = mmap(nullptr, kBytes, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  ASSERT_NE(p, MAP_FAILED);
  const std::size_t rss_before = resident_bytes();
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < kBytes; i += 4096) sum += static_cast<const volatile char*>(p)[i];
  EXPECT_EQ(sum, 0u);
  EXPECT_GE(resident_bytes(), rss_before + kBytes * 9 / 10);
  EXPECT_LT(code_resident_bytes(), code + kOneMiB);
  munmap(p, kBytes);
}

TEST(ProcessMemory, UntrackedSubtractsBaselineTrackedAndRuntimeGrowth) {
  MemoryBaseline b;
  b.rss = 100 * kOneMiB;
  b.runtime = {10 * kOneMiB, 5 * kOneMiB};
  // 300 MiB resident: 100 baseline, 150 tracked, runtime grown from 15 to 35 MiB.
  EXPECT_DOUBLE_EQ(untracked_bytes(300 * kOneMiB, 150 * kOneMiB, 35 * kOneMiB, b), static_cast<double>(30 * kOneMiB));
  // A runtime that shrank below its baseline leaves more untracked, not less.
  EXPECT_DOUBLE_EQ(untracked_bytes(300 * kOneMiB, 150 * kOneMiB, 5 * kOneMiB, b), static_cast<double>(60 * kOneMiB));
}

TEST(ProcessMemory, RuntimeIsCodePlusHeap) {
  const RuntimeMemory r = RuntimeMemory::now();
  EXPECT_GT(r.code, 0u);
  EXPECT_GT(r.heap, 0u);
  EXPECT_EQ(r.total(), r.code + r.heap);
  const MemoryBaseline b = MemoryBaseline::now();
  EXPECT_GE(b.rss, b.runtime.code);
}

// A thread's stack as the engine measures it: the range holds the thread's locals, and
// the pages it has used are present while the rest of its megabytes are not.
TEST(ProcessMemory, ThreadStackHoldsTheThreadsLocalsAndItsUsedPagesArePresent) {
  std::optional<AddressRange> stack;
  std::optional<std::size_t> present;
  const char* local = nullptr;
  std::thread t([&] {
    volatile char frame[64 * 1024];
    for (std::size_t i = 0; i < sizeof frame; i += 4096) frame[i] = 1;
    local = const_cast<const char*>(&frame[0]);
    stack = thread_stack(pthread_self());
    if (stack) {
      const AddressRange ranges[] = {*stack};
      present = present_bytes(ranges);  // while the thread lives: glibc gives the pages back at its exit
    }
  });
  const auto handle_stack = thread_stack(t.native_handle());
  t.join();
  ASSERT_TRUE(stack.has_value());
  ASSERT_TRUE(handle_stack.has_value());
  EXPECT_EQ(handle_stack->base, stack->base) << "from the handle as from the thread itself";
  const auto* base = static_cast<const char*>(stack->base);
  EXPECT_GE(local, base);
  EXPECT_LT(local, base + stack->bytes);
  ASSERT_TRUE(present.has_value());
  EXPECT_GE(*present, std::size_t{64} << 10);
  EXPECT_LT(*present, stack->bytes);
}

}  // namespace
}  // namespace zkpipe::memory
