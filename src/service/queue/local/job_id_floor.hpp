// The highest job id the journal has given a client, kept in a small file of its own
// beside the journal (jobs.sqlite → jobs.last-id), so that it outlives the journal's
// rows. A journal replaced by an older copy, truncated, or stripped of its -wal file
// looks whole to SQLite; without this record it would give the lost jobs' ids to new
// jobs, and a client waiting on one of them would receive another job's proof.
//
// Raised after each insert commits and before the id is returned, by one pwrite of a
// fixed-width record: it survives the process's death as the journal's commits do.
// Like them (synchronous=NORMAL) it is not synced, so an OS crash may lose the last one.
#pragma once

#include <cstdint>
#include <filesystem>

#include "formats/file_descriptor.hpp"

namespace zkpipe::service::queue::local {

class JobIdFloor {
 public:
  // Opens the record, creating an empty one (0) when there is none; throws StoreError
  // naming the file when it cannot be opened or does not hold a decimal id.
  explicit JobIdFloor(std::filesystem::path path);

  std::uint64_t value() const { return value_; }
  // Records `id` if it is above the value; throws StoreError when the write fails.
  void raise(std::uint64_t id);
  const std::filesystem::path& path() const { return path_; }

  // The record that belongs to a journal file.
  static std::filesystem::path beside(const std::filesystem::path& journal);

 private:
  std::filesystem::path path_;
  formats::FileDescriptor fd_;
  std::uint64_t value_ = 0;
};

}  // namespace zkpipe::service::queue::local
