// Whole-file reads with a bound: a device, a FIFO and a file over the bound are
// refused before a byte is read, with the file, the bound and what it was for named.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "io/bounded_read.hpp"
#include "io/file_error.hpp"
#include "temp_dir.hpp"

namespace zkpipe::io {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

template <class Read>
std::string read_error_of(Read read) {
  try {
    read();
  } catch (const FileError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no FileError";
  return {};
}

TEST(BoundedRead, AFileWithinTheBoundIsReadWhole) {
  TempDir dir;
  const fs::path path = dir.path() / "proof.json";
  const std::string text = "{\"pi_a\": [\"1\", \"2\"]}\n";
  std::ofstream(path, std::ios::binary) << text;
  EXPECT_EQ(read_bounded_file(path, text.size(), "proof.json"), text);
  EXPECT_EQ(read_bounded_file(dir.path() / "proof.json", 1 << 20, "proof.json"), text);
}

TEST(BoundedRead, AFileOverTheBoundIsRefusedWithTheBoundNamed) {
  TempDir dir;
  const fs::path path = dir.path() / "vk.json";
  std::ofstream(path, std::ios::binary) << std::string(101, ' ');
  const std::string err = read_error_of([&] { read_bounded_file(path, 100, "proof.json"); });
  EXPECT_EQ(err, path.string() + ": 101 bytes, more than the 100 a proof.json can hold");
}

TEST(BoundedRead, DevicesAndFifosAreRefusedWithoutBlocking) {
  EXPECT_EQ(read_error_of([] { read_bounded_file("/dev/zero", 1024, "proof"); }), "/dev/zero: not a regular file");
  TempDir dir;
  const fs::path fifo = dir.path() / "input.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Returns: no writer is awaited.
  EXPECT_EQ(read_error_of([&] { read_bounded_file(fifo, 1024, "proof"); }), fifo.string() + ": not a regular file");
}

TEST(BoundedRead, AMissingFileIsNamed) {
  TempDir dir;
  const fs::path path = dir.path() / "absent.json";
  EXPECT_EQ(read_error_of([&] { read_bounded_file(path, 1024, "proof"); }),
            path.string() + ": cannot open: No such file or directory");
}

}  // namespace
}  // namespace zkpipe::io
