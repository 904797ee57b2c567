// The daemon's key cache directory within a disk budget: a 32 GiB PoRep's key cache is
// ~51 GB and its evaluator ~9 GB, so a daemon that proves several circuits fills a
// disk. Before a .params is converted into the directory, the oldest files (by their
// last write, i.e. conversion) are removed until the new cache fits; files the daemon
// has mapped (its resident keys' caches and evaluators) are kept.
#pragma once

#include <cstdint>
#include <filesystem>
#include <set>
#include <vector>

namespace zkpipe::service::residency {

// Where the daemon converts Filecoin .params into key caches, and the most bytes the
// directory may hold (0: no limit).
struct KeyCacheOptions {
  std::filesystem::path dir;
  std::uintmax_t budget = 0;
};

struct KeyCacheRoom {
  std::vector<std::filesystem::path> removed;
  std::uintmax_t bytes_before = 0;  // the directory's regular files
  std::uintmax_t bytes_after = 0;
  bool fits = false;  // bytes_after + needed is within the budget
};

// The bytes of the regular files directly in `dir` (0 when it does not exist).
std::uintmax_t key_cache_bytes(const std::filesystem::path& dir);

// Removes the oldest files of `dir` not in `in_use` until its files and `needed`
// more bytes fit in `budget`. Files that cannot be removed are skipped.
KeyCacheRoom make_key_cache_room(const std::filesystem::path& dir, std::uintmax_t budget, std::uintmax_t needed,
                                 const std::set<std::filesystem::path>& in_use);

}  // namespace zkpipe::service::residency
