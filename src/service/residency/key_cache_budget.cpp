#include "service/residency/key_cache_budget.hpp"

#include <algorithm>
#include <system_error>

namespace zkpipe::service::residency {

namespace {

struct CacheFile {
  std::filesystem::path path;
  std::uintmax_t bytes;
  std::filesystem::file_time_type written;
};

std::vector<CacheFile> files_of(const std::filesystem::path& dir) {
  std::vector<CacheFile> out;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    std::error_code e;
    if (!entry.is_regular_file(e)) continue;
    const std::uintmax_t bytes = entry.file_size(e);
    if (e) continue;
    const auto written = entry.last_write_time(e);
    if (e) continue;
    out.push_back({entry.path(), bytes, written});
  }
  return out;
}

}  // namespace

std::uintmax_t key_cache_bytes(const std::filesystem::path& dir) {
  std::uintmax_t total = 0;
  for (const CacheFile& f : files_of(dir)) total += f.bytes;
  return total;
}

KeyCacheRoom make_key_cache_room(const std::filesystem::path& dir, std::uintmax_t budget, std::uintmax_t needed,
                                 const std::set<std::filesystem::path>& in_use) {
  std::vector<CacheFile> files = files_of(dir);
  std::sort(files.begin(), files.end(), [](const CacheFile& a, const CacheFile& b) { return a.written < b.written; });
  KeyCacheRoom room;
  for (const CacheFile& f : files) room.bytes_before += f.bytes;
  room.bytes_after = room.bytes_before;
  const auto fits = [&] { return needed <= budget && room.bytes_after <= budget - needed; };
  for (const CacheFile& f : files) {
    if (fits()) break;
    if (in_use.contains(f.path)) continue;
    std::error_code error;
    if (!std::filesystem::remove(f.path, error) || error) continue;
    room.removed.push_back(f.path);
    room.bytes_after -= f.bytes;
  }
  room.fits = fits();
  return room;
}

}  // namespace zkpipe::service::residency
