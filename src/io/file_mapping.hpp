// A whole regular file mapped read-only, unmapped with its last owner; the one way
// the layers above map a file (parameter, evaluator, .zkey, .r1cs, .wtns files).
//
// A mapping shows the file as it is now, not as it was when mapped: a file changed
// in place changes what later reads see, and one truncated makes reads past its new
// end fault. So a mapping keeps its file open and remembers the file's identity when
// mapped (change() says whether it still matches), and is registered with the fault
// handler (mapping_faults.hpp), so that such a read, when the program installed the
// handler, reads zeros and is reported by damage() instead of killing the process.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "io/mapping_faults.hpp"
#include "io/read_only_file.hpp"

namespace zkpipe::io {

// The whole pages inside [base, base + bytes), a view into a read-only file mapping,
// leave the process's resident set (madvise MADV_DONTNEED): the page cache keeps
// what the kernel does not reclaim, and a later read maps them again, so a range
// copied elsewhere stops counting twice. A neighbour sharing the first or last page
// keeps it. Advice only: pages that cannot be dropped cost RSS, not correctness.
// Never for memory the program wrote, which would read back as the file or zeros.
void release_mapped_pages(const void* base, std::size_t bytes);

class FileMapping {
 public:
  // Throws FileError when the file cannot be mapped.
  static std::shared_ptr<const FileMapping> map(std::shared_ptr<const ReadOnlyFile> file);
  // Opens `path` (ReadOnlyFile::open) and maps it.
  static std::shared_ptr<const FileMapping> open(const std::filesystem::path& path);

  FileMapping(const FileMapping&) = delete;
  FileMapping& operator=(const FileMapping&) = delete;
  ~FileMapping();

  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
  // Gives back the resident pages of a range read once (a file converted chunk by
  // chunk), so that they stop counting in the process's RSS; they stay in the page
  // cache and read back as before. Only whole pages inside the range are dropped.
  void release(std::size_t offset, std::size_t bytes) const;
  const std::string& name() const { return file_->name(); }
  const ReadOnlyFile& file() const { return *file_; }
  // The file as it was when mapped.
  const FileIdentity& identity() const { return identity_; }
  // How the file differs now from when it was mapped ("size A → B", describe_change);
  // nullopt while it does not.
  std::optional<std::string> change() const;
  // The offset of the lowest page a read found beyond the file's end (read as zeros);
  // nullopt while none did.
  std::optional<std::size_t> damage() const { return guard_.damage(); }
  // Throws FileError when damage() has something to say, e.g. after parsing the file.
  void expect_undamaged() const;

 private:
  FileMapping(std::shared_ptr<const ReadOnlyFile> file, FileIdentity identity, const std::uint8_t* data,
              std::size_t size);

  std::shared_ptr<const ReadOnlyFile> file_;
  FileIdentity identity_;
  const std::uint8_t* data_;
  std::size_t size_;
  FaultGuard guard_;
};

}  // namespace zkpipe::io
