// Files under a mapping: a truncation seen before use (change) and during use (a read
// past the new end reads zeros and is reported by damage(), the process lives on);
// a fault outside any guarded mapping still kills; opening beneath a directory
// follows no symbolic link and never leaves it; released pages leave the resident set.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "io/directory.hpp"
#include "io/file_error.hpp"
#include "io/file_mapping.hpp"
#include "io/mapping_faults.hpp"
#include "io/read_only_file.hpp"
#include "sanitizer_build.hpp"
#include "temp_dir.hpp"

namespace zkpipe::io {
namespace {

namespace fs = std::filesystem;

using testing::TempDir;

constexpr std::size_t kPages = 16;

std::size_t page_bytes() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

void write_ones(const fs::path& path, std::size_t bytes) {
  std::ofstream out(path, std::ios::binary);
  const std::vector<char> ones(bytes, 1);
  out.write(ones.data(), static_cast<std::streamsize>(ones.size()));
}

// Every byte, summed: reads each page of the mapping.
std::size_t sum(std::span<const std::uint8_t> bytes) { return std::accumulate(bytes.begin(), bytes.end(), std::size_t{0}); }

TEST(FileMapping, ATruncationIsSeenBeforeUseAndAReadPastTheNewEndIsReportedNotFatal) {
  install_mapping_fault_handler();
  ASSERT_TRUE(mapping_fault_handler_installed());
  TempDir dir;
  const fs::path path = dir.path() / "key.bin";
  const std::size_t size = kPages * page_bytes();
  write_ones(path, size);
  const auto mapping = FileMapping::open(path);
  ASSERT_EQ(mapping->bytes().size(), size);
  EXPECT_EQ(mapping->change(), std::nullopt);
  EXPECT_EQ(mapping->damage(), std::nullopt);
  EXPECT_EQ(sum(mapping->bytes().first(page_bytes())), page_bytes());  // the first page now present

  const std::size_t kept = 4 * page_bytes();
  fs::resize_file(path, kept);
  EXPECT_EQ(mapping->change(), "size " + std::to_string(size) + " → " + std::to_string(kept));
  // Without the handler this read dies of SIGBUS at the first page past `kept`.
  EXPECT_EQ(sum(mapping->bytes()), kept);
  EXPECT_EQ(mapping->damage(), kept);
  try {
    mapping->expect_undamaged();
    ADD_FAILURE() << "no error for a damaged mapping";
  } catch (const FileError& e) {
    EXPECT_EQ(e.file(), path.string());
    EXPECT_NE(e.reason().find("changed while being read"), std::string::npos) << e.what();
    EXPECT_NE(e.reason().find("from offset " + std::to_string(kept)), std::string::npos) << e.what();
  }
  // A fault lower down lowers the damage's offset.
  fs::resize_file(path, page_bytes());
  EXPECT_EQ(sum(mapping->bytes()), page_bytes());  // pages 1..3 now read zeros too
  EXPECT_EQ(mapping->damage(), page_bytes());
}

// Resident pages of the process (/proc/self/statm's second field), in bytes.
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t total = 0;
  std::size_t resident = 0;
  statm >> total >> resident;
  return resident * page_bytes();
}

// A range of a mapping copied elsewhere leaves the resident set, whole pages only
// (from the middle of the first page: that page stays), and reads back as the file.
TEST(FileMapping, ReleasedPagesLeaveTheResidentSetAndReadBack) {
  TempDir dir;
  const std::size_t bytes = 4096 * page_bytes();
  write_ones(dir.path() / "f", bytes);
  const auto mapping = FileMapping::open(dir.path() / "f");
  ASSERT_EQ(sum(mapping->bytes()), bytes);
  const std::size_t before = resident_bytes();
  release_mapped_pages(mapping->bytes().data() + 100, bytes - 100);
  const std::size_t after = resident_bytes();
  // Other pages of the process may come and go meanwhile (a sanitizer's shadow): a
  // sixteenth of slack.
  EXPECT_GE(before, after + bytes - bytes / 16) << "before " << before << ", after " << after;
  EXPECT_EQ(sum(mapping->bytes()), bytes);
}

TEST(FileMapping, AnotherMappingIsUnaffectedAndAFreedSlotStartsClean) {
  install_mapping_fault_handler();
  TempDir dir;
  write_ones(dir.path() / "a", kPages * page_bytes());
  write_ones(dir.path() / "b", kPages * page_bytes());
  const auto b = FileMapping::open(dir.path() / "b");
  {
    const auto a = FileMapping::open(dir.path() / "a");
    fs::resize_file(dir.path() / "a", 0);
    EXPECT_EQ(sum(a->bytes()), 0u);
    EXPECT_EQ(a->damage(), 0u);
  }
  EXPECT_EQ(sum(b->bytes()), kPages * page_bytes());
  EXPECT_EQ(b->damage(), std::nullopt);
  const auto again = FileMapping::open(dir.path() / "b");
  EXPECT_EQ(again->damage(), std::nullopt);
}

TEST(FileMappingDeathTest, AFaultOutsideAGuardedMappingStillKills) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  TempDir dir;
  const fs::path path = dir.path() / "unguarded";
  write_ones(path, kPages * page_bytes());
  EXPECT_EXIT(
      {
        install_mapping_fault_handler();
        const auto file = ReadOnlyFile::open(path);
        void* p = ::mmap(nullptr, kPages * page_bytes(), PROT_READ, MAP_PRIVATE, file->fd(), 0);
        fs::resize_file(path, 0);
        const volatile std::uint8_t* bytes = static_cast<const std::uint8_t*>(p);
        std::exit(bytes[0]);
      },
#if ZKPIPE_TEST_ASAN
      // AddressSanitizer reports the fault itself and exits 1.
      ::testing::ExitedWithCode(1), "AddressSanitizer: BUS");
#else
      ::testing::KilledBySignal(SIGBUS), "");
#endif
}

TEST(ReadOnlyFile, RefusesWhatIsNotARegularFile) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir.path() / "fifo").c_str(), 0600), 0);
  try {
    ReadOnlyFile::open(dir.path() / "fifo");
    ADD_FAILURE() << "opened a FIFO";
  } catch (const FileError& e) {
    EXPECT_EQ(e.reason(), "not a regular file");
  }
  EXPECT_THROW(ReadOnlyFile::open(dir.path()), FileError);
  EXPECT_THROW(ReadOnlyFile::open(dir.path() / "missing"), FileError);
}

TEST(ReadOnlyFile, OpeningBeneathADirectoryFollowsNoLinkAndNeverLeavesIt) {
  TempDir dir;
  const fs::path root = dir.path() / "root";
  fs::create_directories(root / "sub");
  write_ones(root / "sub" / "inside", 10);
  write_ones(dir.path() / "outside", 20);
  const Directory opened(root);
  const auto file = ReadOnlyFile::open_beneath(opened, "sub/inside");
  EXPECT_EQ(file->name(), (root / "sub" / "inside").string());
  EXPECT_EQ(file->identity().size, 10u);

  fs::create_symlink(root / "sub" / "inside", root / "link");
  fs::create_symlink(dir.path(), root / "up");
  for (const char* path : {"link", "up/outside", "../outside", "sub/../../outside"}) {
    try {
      ReadOnlyFile::open_beneath(opened, path);
      ADD_FAILURE() << "opened " << path;
    } catch (const FileError& e) {
      EXPECT_NE(e.reason().find("the path changed after it was checked"), std::string::npos) << e.what();
    }
  }
  // The directory as resolved, even once its path names another.
  fs::rename(root, dir.path() / "moved");
  fs::create_directories(root / "sub");
  write_ones(root / "sub" / "inside", 30);
  EXPECT_EQ(ReadOnlyFile::open_beneath(opened, "sub/inside")->identity().size, 10u);
}

TEST(ReadOnlyFile, DescribesHowAFileChanged) {
  const FileIdentity before{1, 2, 100, 5};
  EXPECT_EQ(describe_change(before, {1, 2, 0, 6}), "size 100 → 0");
  EXPECT_EQ(describe_change(before, {1, 2, 100, 6}), "modified in place (size 100)");
  EXPECT_EQ(describe_change(before, {1, 3, 100, 5}), "replaced by another file");
}

}  // namespace
}  // namespace zkpipe::io
