// Writes that appear whole or not at all: a committed file holds exactly what was
// written; an abandoned one leaves the target as it was and no temporary beside it;
// a second writer of the same file, a planted link and a missing or unwritable
// directory are refused with the file named.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io/atomic_file.hpp"
#include "io/file_error.hpp"
#include "temp_dir.hpp"

namespace zkpipe::io {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

std::string contents(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void put(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The names in `dir`, sorted.
std::vector<std::string> listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

template <class Action>
FileError file_error_of(Action action) {
  try {
    action();
  } catch (const FileError& e) {
    return e;
  }
  ADD_FAILURE() << "no FileError";
  return FileError("", "");
}

TEST(AtomicFile, CommitPutsExactlyWhatWasWrittenUnderTheNameAndNothingElse) {
  TempDir dir;
  const fs::path path = dir.path() / "out.bin";
  const std::vector<std::uint8_t> head = {1, 2, 3};
  {
    AtomicFile file(path);
    EXPECT_EQ(file.temporary_path(), fs::path(path.string() + ".partial"));
    file.write(head);
    file.write_zeros(70'000);  // more than one block of zeros
    file.write(std::string_view("end"));
    EXPECT_EQ(file.size(), 3u + 70'000u + 3u);
    EXPECT_FALSE(fs::exists(path));  // not visible before the commit
    file.commit();
  }
  const std::string expected = std::string("\1\2\3") + std::string(70'000, '\0') + "end";
  EXPECT_EQ(contents(path), expected);
  EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"out.bin"});
}

TEST(AtomicFile, AnAbandonedWriteLeavesNeitherTheTargetNorTheTemporary) {
  TempDir dir;
  const fs::path path = dir.path() / "out.bin";
  {
    AtomicFile file(path);
    file.write(std::string_view("half of it"));
    EXPECT_TRUE(fs::exists(file.temporary_path()));
  }
  EXPECT_TRUE(listing(dir.path()).empty());
}

TEST(AtomicFile, AnAbandonedRewriteLeavesTheExistingFileIntact) {
  TempDir dir;
  const fs::path path = dir.path() / "key.bin";
  put(path, "the old key");
  struct stat before {};
  ASSERT_EQ(::stat(path.c_str(), &before), 0);
  {
    AtomicFile file(path);
    file.write(std::string_view("a new key that is never committed"));
  }
  EXPECT_EQ(contents(path), "the old key");
  struct stat after {};
  ASSERT_EQ(::stat(path.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino);
  EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"key.bin"});
}

TEST(AtomicFile, ACommittedRewriteReplacesTheFileAndLeavesAnOpenReaderOnTheOldOne) {
  TempDir dir;
  const fs::path path = dir.path() / "key.bin";
  put(path, "old");
  std::ifstream reader(path, std::ios::binary);
  write_file_atomically(path, std::string_view("new contents"));
  EXPECT_EQ(contents(path), "new contents");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(reader), std::istreambuf_iterator<char>()), "old");
}

TEST(AtomicFile, ATemporaryLeftByADeadWriterIsTakenOverAndTruncated) {
  TempDir dir;
  const fs::path path = dir.path() / "out.json";
  put(path.string() + ".partial", std::string(5000, 'x'));  // no one holds its lock
  write_file_atomically(path, std::string_view("{}"));
  EXPECT_EQ(contents(path), "{}");
  EXPECT_EQ(listing(dir.path()), std::vector<std::string>{"out.json"});
}

TEST(AtomicFile, ASecondWriterOfTheSameFileIsRefusedUntilTheFirstIsDone) {
  TempDir dir;
  const fs::path path = dir.path() / "out.json";
  {
    AtomicFile first(path);
    first.write(std::string_view("first"));
    const FileError e = file_error_of([&] { AtomicFile second(path); });
    EXPECT_EQ(e.file(), path.string() + ".partial");
    EXPECT_NE(e.reason().find("another process is writing " + path.string()), std::string::npos) << e.what();
    first.write(std::string_view(" writer"));  // the refused writer neither truncated nor removed it
    first.commit();
  }
  EXPECT_EQ(contents(path), "first writer");
  write_file_atomically(path, std::string_view("second"));
  EXPECT_EQ(contents(path), "second");
}

TEST(AtomicFile, ALinkPlantedAsTheTemporaryIsNotFollowed) {
  TempDir dir;
  const fs::path path = dir.path() / "out.json";
  const fs::path victim = dir.path() / "victim";
  put(victim, "keep me");
  fs::create_symlink(victim, path.string() + ".partial");
  const FileError e = file_error_of([&] { write_file_atomically(path, std::string_view("{}")); });
  EXPECT_EQ(e.file(), path.string() + ".partial");
  EXPECT_NE(e.reason().find("cannot create"), std::string::npos) << e.what();
  EXPECT_EQ(contents(victim), "keep me");
  EXPECT_FALSE(fs::exists(path));
}

TEST(AtomicFile, AMissingDirectoryIsNamed) {
  TempDir dir;
  const fs::path missing = dir.path() / "no" / "such";
  const FileError e = file_error_of([&] { AtomicFile file(missing / "out.json"); });
  EXPECT_EQ(e.file(), missing.string());
  EXPECT_NE(e.reason().find("cannot open the directory to write out.json"), std::string::npos) << e.what();
  EXPECT_NE(e.reason().find("No such file or directory"), std::string::npos) << e.what();
}

TEST(AtomicFile, AnUnwritableDirectoryNamesTheFileAndTheReason) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into any directory";
  TempDir dir;
  const fs::path locked = dir.path() / "locked";
  fs::create_directory(locked);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  const FileError e = file_error_of([&] { write_file_atomically(locked / "out.json", std::string_view("{}")); });
  fs::permissions(locked, fs::perms::owner_all);
  EXPECT_EQ(e.file(), (locked / "out.json").string() + ".partial");
  EXPECT_NE(e.reason().find("cannot create: Permission denied"), std::string::npos) << e.what();
  EXPECT_TRUE(listing(locked).empty());
}

// sysfs refuses new files to every user, root included (the test above is skipped under root).
TEST(AtomicFile, ADirectoryNoOneMayCreateFilesInNamesTheFileAndTheReason) {
  if (!fs::is_directory("/sys/kernel")) GTEST_SKIP() << "no sysfs";
  const fs::path path = "/sys/kernel/zkpipe-atomic-file-test.json";
  const FileError e = file_error_of([&] { write_file_atomically(path, std::string_view("{}")); });
  EXPECT_EQ(e.file(), path.string() + ".partial");
  EXPECT_NE(e.reason().find("cannot create: "), std::string::npos) << e.what();
  EXPECT_FALSE(fs::exists(path));
}

TEST(AtomicFile, APathNamingNoFileIsRefused) {
  TempDir dir;
  const FileError e = file_error_of([&] { AtomicFile file(dir.path() / ""); });
  EXPECT_NE(e.reason().find("names no file"), std::string::npos) << e.what();
  EXPECT_TRUE(listing(dir.path()).empty());
}

}  // namespace
}  // namespace zkpipe::io
