#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "memory/cgroup_memory.hpp"

namespace zkpipe::memory {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// A file tree standing for / : /proc/self/cgroup, /proc/self/mountinfo and the
// cgroup files the mounts name.
class FakeRoot {
 public:
  FakeRoot() : root_(std::filesystem::temp_directory_path() / ("zkpipe-cgroup-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(root_);
  }
  ~FakeRoot() { std::filesystem::remove_all(root_); }
  FakeRoot(const FakeRoot&) = delete;
  FakeRoot& operator=(const FakeRoot&) = delete;

  void write(const std::string& absolute, const std::string& text) const {
    const std::filesystem::path p = root_ / std::filesystem::path(absolute).relative_path();
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  const std::filesystem::path& path() const { return root_; }

 private:
  std::filesystem::path root_;
};

constexpr const char* kV2Mount =
    "25 30 0:23 / /sys/fs/proc rw - proc proc rw\n"
    "35 30 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate\n";

TEST(CgroupMemory, V2LeafLimitLessItsUseAndInactiveFileCache) {
  FakeRoot fs;
  fs.write("/proc/self/cgroup", "0::/system.slice/zkpipe.service\n");
  fs.write("/proc/self/mountinfo", kV2Mount);
  fs.write("/sys/fs/cgroup/system.slice/memory.max", "max\n");
  fs.write("/sys/fs/cgroup/system.slice/zkpipe.service/memory.max", std::to_string(1024 * kMiB) + "\n");
  fs.write("/sys/fs/cgroup/system.slice/zkpipe.service/memory.current", std::to_string(600 * kMiB) + "\n");
  fs.write("/sys/fs/cgroup/system.slice/zkpipe.service/memory.stat",
           "anon 1\nfile 2\nactive_file 5\ninactive_file " + std::to_string(100 * kMiB) + "\n");
  const auto got = cgroup_memory_limit(fs.path());
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->cgroup, "/system.slice/zkpipe.service");
  EXPECT_EQ(got->limit, 1024 * kMiB);
  EXPECT_EQ(got->used, 500 * kMiB);
  EXPECT_EQ(got->left(), 524 * kMiB);
}

TEST(CgroupMemory, AParentWithLessLeftIsTheBound) {
  FakeRoot fs;
  fs.write("/proc/self/cgroup", "0::/system.slice/zkpipe.service\n");
  fs.write("/proc/self/mountinfo", kV2Mount);
  fs.write("/sys/fs/cgroup/system.slice/memory.max", std::to_string(2048 * kMiB));
  fs.write("/sys/fs/cgroup/system.slice/memory.current", std::to_string(1900 * kMiB));
  fs.write("/sys/fs/cgroup/system.slice/zkpipe.service/memory.max", std::to_string(1024 * kMiB));
  fs.write("/sys/fs/cgroup/system.slice/zkpipe.service/memory.current", std::to_string(100 * kMiB));
  const auto got = cgroup_memory_limit(fs.path());
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->cgroup, "/system.slice");
  EXPECT_EQ(got->left(), 148 * kMiB);
}

TEST(CgroupMemory, V1MemoryControllerBesideOthers) {
  FakeRoot fs;
  fs.write("/proc/self/cgroup", "5:devices:/\n4:cpu,memory:/process_api/abc\n0::/\n");
  fs.write("/proc/self/mountinfo",
           "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
           "32 31 0:29 / /sys/fs/cgroup/cpu,memory rw,relatime - cgroup cgroup rw,cpu,memory\n"
           "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n");
  const std::string dir = "/sys/fs/cgroup/cpu,memory";
  fs.write(dir + "/memory.limit_in_bytes", "9223372036854771712\n");  // no limit
  fs.write(dir + "/memory.usage_in_bytes", std::to_string(9000 * kMiB));
  fs.write(dir + "/process_api/abc/memory.limit_in_bytes", std::to_string(512 * kMiB));
  fs.write(dir + "/process_api/abc/memory.usage_in_bytes", std::to_string(200 * kMiB));
  fs.write(dir + "/process_api/abc/memory.stat", "cache 9\ntotal_inactive_file " + std::to_string(50 * kMiB) + "\n");
  const auto got = cgroup_memory_limit(fs.path());
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->cgroup, "/process_api/abc");
  EXPECT_EQ(got->left(), 362 * kMiB);
}

// In a cgroup namespace (a container) the mount shows the process's own cgroup at
// its mount point: its files are there, not below.
TEST(CgroupMemory, AMountWhoseRootIsTheProcesssCgroup) {
  FakeRoot fs;
  fs.write("/proc/self/cgroup", "0::/docker/abc\n");
  fs.write("/proc/self/mountinfo", "35 30 0:30 /docker/abc /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n");
  fs.write("/sys/fs/cgroup/memory.max", std::to_string(256 * kMiB));
  fs.write("/sys/fs/cgroup/memory.current", std::to_string(56 * kMiB));
  const auto got = cgroup_memory_limit(fs.path());
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->left(), 200 * kMiB);
}

TEST(CgroupMemory, NoLimitAnywhereOrNothingReadableIsNone) {
  FakeRoot fs;
  fs.write("/proc/self/cgroup", "0::/user.slice\n");
  fs.write("/proc/self/mountinfo", kV2Mount);
  fs.write("/sys/fs/cgroup/user.slice/memory.max", "max\n");
  fs.write("/sys/fs/cgroup/user.slice/memory.current", "12345\n");
  EXPECT_FALSE(cgroup_memory_limit(fs.path()).has_value());
  fs.write("/sys/fs/cgroup/user.slice/memory.max", "not a number\n");
  EXPECT_FALSE(cgroup_memory_limit(fs.path()).has_value());
  EXPECT_FALSE(cgroup_memory_limit(fs.path() / "nothing-here").has_value());
}

// Use past the limit (the kernel reclaims or kills next) leaves nothing, not a wrap.
TEST(CgroupMemory, UseAboveTheLimitLeavesNothing) {
  FakeRoot fs;
  fs.write("/proc/self/cgroup", "0::/\n");
  fs.write("/proc/self/mountinfo", kV2Mount);
  fs.write("/sys/fs/cgroup/memory.max", std::to_string(100 * kMiB));
  fs.write("/sys/fs/cgroup/memory.current", std::to_string(120 * kMiB));
  const auto got = cgroup_memory_limit(fs.path());
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->cgroup, "/");
  EXPECT_EQ(got->left(), 0u);
}

}  // namespace
}  // namespace zkpipe::memory
