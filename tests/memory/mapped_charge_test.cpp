#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "memory/buffer_ledger.hpp"
#include "memory/mapped_charge.hpp"
#include "memory/process_memory.hpp"

namespace zkpipe::memory {
namespace {

const std::size_t kPage = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
constexpr std::size_t kPages = 64;

// An anonymous mapping of kPages pages, small pages only (a transparent huge page
// would make one write present 512 pages at once).
class AnonymousPages {
 public:
  AnonymousPages() {
    void* p = ::mmap(nullptr, kPages * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap failed");
    data_ = static_cast<char*>(p);
    ::madvise(data_, kPages * kPage, MADV_NOHUGEPAGE);
  }
  AnonymousPages(const AnonymousPages&) = delete;
  AnonymousPages& operator=(const AnonymousPages&) = delete;
  ~AnonymousPages() { ::munmap(data_, kPages * kPage); }

  char* data() const { return data_; }
  AddressRange range() const { return {data_, kPages * kPage}; }

 private:
  char* data_ = nullptr;
};

// A file of kPages pages, mapped read-only as parameter files are.
class MappedTempFile {
 public:
  MappedTempFile() {
    std::string pattern = (std::filesystem::temp_directory_path() / "zkpipe-mapped-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) throw std::runtime_error("mkstemp failed");
    path_ = pattern;
    const std::vector<char> bytes(kPages * kPage, 7);
    const bool written = ::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
    void* p = written ? ::mmap(nullptr, bytes.size(), PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    ::close(fd);
    if (p == MAP_FAILED) throw std::runtime_error("cannot map the temporary file");
    data_ = static_cast<const char*>(p);
  }
  MappedTempFile(const MappedTempFile&) = delete;
  MappedTempFile& operator=(const MappedTempFile&) = delete;
  ~MappedTempFile() {
    ::munmap(const_cast<char*>(data_), kPages * kPage);
    std::filesystem::remove(path_);
  }

  const char* data() const { return data_; }
  AddressRange range() const { return {data_, kPages * kPage}; }

 private:
  std::filesystem::path path_;
  const char* data_ = nullptr;
};

TEST(PresentBytes, CountsExactlyThePagesWritten) {
  AnonymousPages pages;
  const AddressRange all[] = {pages.range()};
  ASSERT_EQ(present_bytes(all), 0u);
  for (std::size_t i : {0, 10, 20, 63}) pages.data()[i * kPage + 5] = 1;
  EXPECT_EQ(present_bytes(all), 4 * kPage);
  // Sub-ranges: whole pages, a partly covered page in full.
  const AddressRange parts[] = {{pages.data() + 10 * kPage + 100, 10}, {pages.data() + 30 * kPage, 34 * kPage}};
  EXPECT_EQ(present_bytes(parts), 2 * kPage);
}

TEST(PresentBytes, FileMappingPagesArePresentOnlyOnceRead) {
  const MappedTempFile file;
  const AddressRange all[] = {file.range()};
  // Mapping a file maps none of its pages, whatever the page cache holds of it.
  ASSERT_EQ(present_bytes(all), 0u);
  long sum = 0;
  for (std::size_t i = 0; i < kPages * kPage; i += kPage) sum += file.data()[i];
  EXPECT_EQ(sum, 7 * static_cast<long>(kPages));
  EXPECT_EQ(present_bytes(all), kPages * kPage);
}

TEST(MappedCharge, FollowsThePresentPagesAtEachRefresh) {
  BufferLedger ledger;
  AnonymousPages pages;
  // Two ranges of 10 and 20 whole pages, then one of half a page.
  const std::vector<AddressRange> ranges = {
      {pages.data(), 10 * kPage}, {pages.data() + 20 * kPage, 20 * kPage}, {pages.data() + 50 * kPage, kPage / 2}};
  MappedCharge charge(ledger, Stage::parameters, ranges);
  EXPECT_EQ(charge.mapped_bytes(), 30 * kPage + kPage / 2);
  EXPECT_EQ(charge.bytes(), 0u);
  EXPECT_EQ(ledger.snapshot()[Stage::parameters].count, 1u);

  pages.data()[0] = 1;
  pages.data()[25 * kPage] = 1;
  pages.data()[45 * kPage] = 1;  // outside every range
  EXPECT_EQ(charge.bytes(), 0u) << "the charge moves only at refresh()";
  charge.refresh();
  EXPECT_EQ(charge.bytes(), 2 * kPage);
  EXPECT_EQ(ledger.snapshot()[Stage::parameters].bytes, 2 * kPage);
  EXPECT_EQ(ledger.snapshot().tracked, 2 * kPage);

  // Everything touched: the ranges' size, not their pages' (the half page).
  for (std::size_t i = 0; i < kPages; ++i) pages.data()[i * kPage] = 1;
  charge.refresh();
  EXPECT_EQ(charge.bytes(), charge.mapped_bytes());

  // Pages given back (as the kernel reclaims clean file pages) leave the charge.
  ::madvise(pages.data(), kPages * kPage, MADV_DONTNEED);
  charge.refresh();
  EXPECT_EQ(charge.bytes(), 0u);
}

TEST(MappedCharge, ReleasesItsChargeWhenDestroyed) {
  BufferLedger ledger;
  AnonymousPages pages;
  pages.data()[0] = 1;
  {
    MappedCharge charge(ledger, Stage::parameters, {pages.range()});
    EXPECT_EQ(ledger.snapshot()[Stage::parameters].bytes, kPage);
  }
  EXPECT_EQ(ledger.snapshot()[Stage::parameters].count, 0u);
  EXPECT_EQ(ledger.snapshot().tracked, 0u);
}

}  // namespace
}  // namespace zkpipe::memory
