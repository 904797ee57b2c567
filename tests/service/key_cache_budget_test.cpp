// The key cache directory kept within its budget: the oldest files go first, files in
// use stay, and the outcome says whether the new cache fits.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/temp_dir.hpp"
#include "service/residency/key_cache_budget.hpp"

namespace zkpipe::service {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, std::size_t bytes, int age_hours) {
  std::ofstream(path, std::ios::binary) << std::string(bytes, 'k');
  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::hours(age_hours));
}

TEST(KeyCacheBudget, TheOldestFilesGoFirstAndFilesInUseStay) {
  const io::testing::TempDir dir;
  write(dir.path() / "oldest.zkp", 400, 30);
  write(dir.path() / "in-use.zkp", 300, 20);
  write(dir.path() / "older.zkpev", 200, 10);
  write(dir.path() / "newest.zkp", 100, 1);
  fs::create_directory(dir.path() / "not-a-file");
  EXPECT_EQ(residency::key_cache_bytes(dir.path()), 1000u);

  // Room for 500 more within 1100: 400 must go, the oldest first.
  const residency::KeyCacheRoom room =
      residency::make_key_cache_room(dir.path(), 1100, 500, {dir.path() / "in-use.zkp"});
  EXPECT_TRUE(room.fits);
  ASSERT_EQ(room.removed.size(), 1u);
  EXPECT_EQ(room.removed[0], dir.path() / "oldest.zkp");
  EXPECT_EQ(room.bytes_before, 1000u);
  EXPECT_EQ(room.bytes_after, 600u);

  // Room for 800 within 900: the file in use stays, so it cannot fit.
  const residency::KeyCacheRoom tight =
      residency::make_key_cache_room(dir.path(), 900, 800, {dir.path() / "in-use.zkp"});
  EXPECT_FALSE(tight.fits);
  EXPECT_EQ(tight.removed.size(), 2u);
  EXPECT_TRUE(fs::exists(dir.path() / "in-use.zkp"));
  EXPECT_EQ(residency::key_cache_bytes(dir.path()), 300u);
  // More than the budget itself never fits; nothing in a missing directory.
  EXPECT_FALSE(residency::make_key_cache_room(dir.path(), 100, 200, {}).fits);
  EXPECT_EQ(residency::key_cache_bytes(dir.path() / "absent"), 0u);
  EXPECT_TRUE(residency::make_key_cache_room(dir.path() / "absent", 100, 50, {}).fits);
}

}  // namespace
}  // namespace zkpipe::service
