// The iden3 binary container shared by circom's .r1cs and .wtns and snarkjs's .zkey:
//
//   magic[4]  u32 version  u32 nSections  then nSections × { u32 id, u64 size, byte[size] }
//
// little-endian, sections in any order. BinFile maps the file, checks the header and
// that every section lies inside the file, and indexes the sections by id; a
// SectionReader walks one section with bounds-checked reads whose errors carry the
// file, section id and absolute offset. A reader runs its parse through parse() so
// that a file truncated while it was read is reported as such (io/file_mapping.hpp),
// not as whatever the zeros it then read look like.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "formats/format_error.hpp"
#include "io/file_mapping.hpp"
#include "io/read_only_file.hpp"

namespace zkpipe::formats {

// A field element of BLS12-381's scalar field as these files hold it (their headers'
// field size must say so): 32 bytes, little-endian.
inline constexpr std::uint32_t kFrBytes = 32;

// The little-endian unsigned integer in up to 8 bytes.
std::uint64_t load_le(std::span<const std::uint8_t> bytes);

class SectionReader {
 public:
  SectionReader(std::string file, std::uint32_t id, std::uint64_t start, std::span<const std::uint8_t> bytes)
      : file_(std::move(file)), id_(id), start_(start), bytes_(bytes) {}

  std::uint32_t id() const { return id_; }
  std::uint64_t size() const { return bytes_.size(); }
  std::uint64_t remaining() const { return bytes_.size() - pos_; }
  // The absolute file offset of the next read.
  std::uint64_t offset() const { return start_ + pos_; }

  std::uint32_t u32();
  std::uint64_t u64();
  std::span<const std::uint8_t> bytes(std::uint64_t n);

  // Throws unless exactly `count` records of `record_bytes` remain (or, for the
  // at-least form, at least that many), before anything is allocated for them.
  void expect_remaining(std::uint64_t count, std::uint64_t record_bytes, std::string_view what) const;
  void expect_at_least(std::uint64_t count, std::uint64_t record_bytes, std::string_view what) const;
  // Throws if bytes are left over after the last field.
  void expect_end() const;

  [[noreturn]] void fail(const std::string& message) const { fail_at(offset(), message); }
  [[noreturn]] void fail_at(std::uint64_t absolute_offset, const std::string& message) const {
    throw FormatError(file_, message, id_, absolute_offset);
  }

 private:
  std::string file_;
  std::uint32_t id_;
  std::uint64_t start_;
  std::span<const std::uint8_t> bytes_;
  std::uint64_t pos_ = 0;
};

class BinFile {
 public:
  // Throws FormatError for an unreadable file, a wrong magic or version, a section
  // running past the end of the file, a repeated section id or trailing bytes.
  static BinFile open(const std::filesystem::path& path, std::string_view magic, std::uint32_t version);
  // The same for a file already open.
  static BinFile open(std::shared_ptr<const io::ReadOnlyFile> file, std::string_view magic, std::uint32_t version);

  const std::string& name() const { return file_->name(); }
  bool has(std::uint32_t id) const { return sections_.contains(id); }
  // Throws FormatError naming `what` when the section is missing.
  SectionReader section(std::uint32_t id, std::string_view what) const;
  // Runs `read` (which parses this file) and returns what it returns; throws
  // FormatError, whatever `read` made of it, when the file was truncated while it ran.
  template <class Read>
  auto parse(Read&& read) const {
    std::optional<decltype(read())> out;
    try {
      out.emplace(read());
    } catch (const FormatError&) {
      expect_undamaged();
      throw;
    }
    expect_undamaged();
    return std::move(*out);
  }

 private:
  struct Extent {
    std::uint64_t offset;
    std::uint64_t size;
  };
  explicit BinFile(std::shared_ptr<const io::FileMapping> file) : file_(std::move(file)) {}
  void index_sections(std::string_view magic, std::uint32_t version);
  void expect_undamaged() const;

  std::shared_ptr<const io::FileMapping> file_;
  std::map<std::uint32_t, Extent> sections_;
};

}  // namespace zkpipe::formats
