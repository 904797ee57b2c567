#include "formats/bin_file.hpp"

#include <cstring>

#include "io/file_error.hpp"

namespace zkpipe::formats {

std::uint64_t load_le(std::span<const std::uint8_t> b) {
  std::uint64_t v = 0;
  for (std::size_t i = b.size(); i-- > 0;) v = (v << 8) | b[i];
  return v;
}

namespace {

constexpr std::uint64_t kHeaderBytes = 12;
constexpr std::uint64_t kSectionHeaderBytes = 12;

}  // namespace

std::uint32_t SectionReader::u32() { return static_cast<std::uint32_t>(load_le(bytes(4))); }
std::uint64_t SectionReader::u64() { return load_le(bytes(8)); }

std::span<const std::uint8_t> SectionReader::bytes(std::uint64_t n) {
  if (n > remaining()) {
    fail("truncated: needs " + std::to_string(n) + " more bytes, the section has " + std::to_string(remaining()) +
         " left");
  }
  auto out = bytes_.subspan(pos_, n);
  pos_ += n;
  return out;
}

void SectionReader::expect_remaining(std::uint64_t count, std::uint64_t record_bytes, std::string_view what) const {
  if (record_bytes != 0 && (remaining() % record_bytes != 0 || remaining() / record_bytes != count)) {
    fail("section size mismatch: " + std::to_string(count) + " " + std::string(what) + " of " +
         std::to_string(record_bytes) + " bytes declared, " + std::to_string(remaining()) + " bytes present");
  }
}

void SectionReader::expect_at_least(std::uint64_t count, std::uint64_t record_bytes, std::string_view what) const {
  if (record_bytes != 0 && remaining() / record_bytes < count) {
    fail("declared count too large: " + std::to_string(count) + " " + std::string(what) + " need at least " +
         std::to_string(record_bytes) + " bytes each, the section has " + std::to_string(remaining()) + " bytes");
  }
}

void SectionReader::expect_end() const {
  if (remaining() != 0) fail("section size mismatch: " + std::to_string(remaining()) + " unexpected trailing bytes");
}

BinFile BinFile::open(const std::filesystem::path& path, std::string_view magic, std::uint32_t version) {
  try {
    return open(io::ReadOnlyFile::open(path), magic, version);
  } catch (const io::FileError& e) {
    throw FormatError(e.file(), e.reason());
  }
}

BinFile BinFile::open(std::shared_ptr<const io::ReadOnlyFile> file, std::string_view magic, std::uint32_t version) {
  std::shared_ptr<const io::FileMapping> mapping;
  try {
    mapping = io::FileMapping::map(std::move(file));
  } catch (const io::FileError& e) {
    throw FormatError(e.file(), e.reason());
  }
  BinFile f(std::move(mapping));
  f.parse([&] {
    f.index_sections(magic, version);
    return true;
  });
  return f;
}

void BinFile::expect_undamaged() const {
  try {
    file_->expect_undamaged();
  } catch (const io::FileError& e) {
    throw FormatError(e.file(), e.reason());
  }
}

void BinFile::index_sections(std::string_view magic, std::uint32_t version) {
  const auto bytes = file_->bytes();
  const std::string& name = file_->name();
  if (bytes.size() < kHeaderBytes) {
    throw FormatError(name, "truncated: " + std::to_string(bytes.size()) + " bytes, the header needs 12", {}, 0);
  }
  if (std::memcmp(bytes.data(), magic.data(), 4) != 0) {
    throw FormatError(name, "bad magic: not a ." + std::string(magic) + " file", {}, 0);
  }
  const auto file_version = static_cast<std::uint32_t>(load_le(bytes.subspan(4, 4)));
  if (file_version != version) {
    throw FormatError(name,
                      "unsupported version " + std::to_string(file_version) + " (expected " +
                          std::to_string(version) + ")",
                      {}, 4);
  }
  const auto count = static_cast<std::uint32_t>(load_le(bytes.subspan(8, 4)));
  std::uint64_t pos = kHeaderBytes;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (bytes.size() - pos < kSectionHeaderBytes) {
      throw FormatError(name,
                        "truncated: section header " + std::to_string(i) + " of " + std::to_string(count) +
                            " runs past the end of the file (" + std::to_string(bytes.size()) + " bytes)",
                        {}, pos);
    }
    const auto id = static_cast<std::uint32_t>(load_le(bytes.subspan(pos, 4)));
    const std::uint64_t size = load_le(bytes.subspan(pos + 4, 8));
    const std::uint64_t start = pos + kSectionHeaderBytes;
    if (size > bytes.size() - start) {
      throw FormatError(name,
                        "truncated: declares " + std::to_string(size) + " bytes, only " +
                            std::to_string(bytes.size() - start) + " remain in the file",
                        id, pos);
    }
    if (!sections_.emplace(id, Extent{start, size}).second) {
      throw FormatError(name, "appears twice", id, pos);
    }
    pos = start + size;
  }
  if (pos != bytes.size()) {
    throw FormatError(name, std::to_string(bytes.size() - pos) + " trailing bytes after the last section", {}, pos);
  }
}

SectionReader BinFile::section(std::uint32_t id, std::string_view what) const {
  auto it = sections_.find(id);
  if (it == sections_.end()) {
    throw FormatError(name(), "missing section " + std::to_string(id) + " (" + std::string(what) + ")");
  }
  return SectionReader(name(), id, it->second.offset, file_->bytes().subspan(it->second.offset, it->second.size));
}

}  // namespace zkpipe::formats
