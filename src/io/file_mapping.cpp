#include "io/file_mapping.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "io/file_error.hpp"

namespace zkpipe::io {

std::shared_ptr<const FileMapping> FileMapping::map(std::shared_ptr<const ReadOnlyFile> file) {
  // The size mapped is the size now, which may differ from the size at open.
  const FileIdentity identity = file->current();
  const std::string name = file->name();
  const auto size = static_cast<std::size_t>(identity.size);
  const std::uint8_t* data = nullptr;
  if (size > 0) {  // mmap refuses an empty range; the readers report the empty file
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, file->fd(), 0);
    if (p == MAP_FAILED) throw FileError(name, std::string("cannot map: ") + std::strerror(errno));
    data = static_cast<const std::uint8_t*>(p);
  }
  try {
    return std::shared_ptr<const FileMapping>(new FileMapping(std::move(file), identity, data, size));
  } catch (const std::length_error& e) {
    if (data != nullptr) ::munmap(const_cast<std::uint8_t*>(data), size);
    throw FileError(name, std::string("cannot map: ") + e.what());
  }
}

std::shared_ptr<const FileMapping> FileMapping::open(const std::filesystem::path& path) {
  return map(ReadOnlyFile::open(path));
}

FileMapping::FileMapping(std::shared_ptr<const ReadOnlyFile> file, FileIdentity identity, const std::uint8_t* data,
                         std::size_t size)
    : file_(std::move(file)), identity_(identity), data_(data), size_(size), guard_(data, size) {}

FileMapping::~FileMapping() {
  if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

void release_mapped_pages(const void* base, std::size_t bytes) {
  const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  const auto at = reinterpret_cast<std::uintptr_t>(base);
  const std::uintptr_t begin = (at + page - 1) / page * page;
  const std::uintptr_t end = (at + bytes) / page * page;
  if (begin < end) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

void FileMapping::release(std::size_t offset, std::size_t bytes) const {
  if (offset >= size_ || bytes == 0) return;
  release_mapped_pages(data_ + offset, std::min(bytes, size_ - offset));
}

std::optional<std::string> FileMapping::change() const {
  const FileIdentity now = file_->current();
  if (now == identity_) return std::nullopt;
  return describe_change(identity_, now);
}

void FileMapping::expect_undamaged() const {
  if (const auto at = damage()) {
    throw FileError(name(), "changed while being read: the mapping found no data from offset " + std::to_string(*at) +
                                " (the file was truncated after it was opened; " +
                                change().value_or("its size is now as mapped") + ")");
  }
}

}  // namespace zkpipe::io
