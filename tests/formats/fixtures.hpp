// The circom + snarkjs fixture sets checked into tests/fixtures (copied from the
// shared fixture folder, see its README): chain-2e10 and sorted64x16.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

namespace zkpipe::formats::testing {

inline std::filesystem::path fixture_dir(const std::string& set) {
  return std::filesystem::path(__FILE__).parent_path().parent_path() / "fixtures" / set;
}

inline std::vector<std::uint8_t> read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::filesystem::path& p, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// A scratch copy of a file for tests that corrupt it, private to this process and
// test: ctest runs tests in parallel processes, and rewriting a file that another
// process has memory-mapped would crash that reader (SIGBUS).
inline std::filesystem::path scratch_path(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string owner = std::to_string(::getpid()) + "_" + (test ? test->name() : "none") + "_";
  std::replace(owner.begin(), owner.end(), '/', '_');  // parameterized tests: "Name/param"
  return std::filesystem::path(::testing::TempDir()) / ("zkpipe_formats_" + owner + name);
}

inline void put_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

inline void put_u64(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

inline std::uint64_t get_le(const std::vector<std::uint8_t>& b, std::size_t at, int n) {
  std::uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | b[at + i];
  return v;
}

// Offset of the section header (id, size) of section `id` in an iden3 container.
inline std::size_t section_header_offset(const std::vector<std::uint8_t>& b, std::uint32_t id) {
  std::size_t pos = 12;
  const auto count = get_le(b, 8, 4);
  for (std::uint64_t i = 0; i < count; ++i) {
    if (get_le(b, pos, 4) == id) return pos;
    pos += 12 + get_le(b, pos + 4, 8);
  }
  ADD_FAILURE() << "no section " << id;
  return 0;
}

// Offset of the payload of section `id`.
inline std::size_t section_offset(const std::vector<std::uint8_t>& b, std::uint32_t id) {
  return section_header_offset(b, id) + 12;
}

}  // namespace zkpipe::formats::testing
