// The kernel configuration and the build's architectures against the published
// figures of the GPUs storage providers prove on: no GPU needed, so these run in CI.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/architectures.hpp"
#include "gpu/device_profile.hpp"

namespace zkpipe::gpu {
namespace {

constexpr std::size_t kGiB = std::size_t{1} << 30;

// NVIDIA's published figures (CUDA C++ Programming Guide, "Technical Specifications
// per Compute Capability", and each card's datasheet): shared memory a block may opt
// into is 99 KiB on 8.6 / 8.9 / 12.0, 163 KiB on 8.0, 227 KiB on 9.0.
DeviceProfile card(const char* name, int major, int minor, int sms, std::size_t gib, std::size_t optin_kib,
                   int threads_per_sm) {
  DeviceProfile d;
  d.name = name;
  d.major = major;
  d.minor = minor;
  d.multiprocessors = sms;
  d.memory_bytes = gib * kGiB;
  d.shared_per_block_optin = optin_kib * 1024;
  d.max_threads_per_block = 1024;
  d.max_threads_per_multiprocessor = threads_per_sm;
  d.registers_per_multiprocessor = 65536;
  d.registers_per_block = 65536;
  return d;
}

std::vector<DeviceProfile> provers_cards() {
  return {card("NVIDIA GeForce RTX 3090", 8, 6, 82, 24, 99, 1536),
          card("NVIDIA GeForce RTX 4090", 8, 9, 128, 24, 99, 1536),
          card("NVIDIA GeForce RTX 5090", 12, 0, 170, 32, 99, 1536),
          card("NVIDIA GeForce RTX 5070 Ti", 12, 0, 70, 16, 99, 1536),
          card("NVIDIA A100 80GB PCIe", 8, 0, 108, 80, 163, 2048),
          card("NVIDIA L40S", 8, 9, 142, 48, 99, 1536),
          card("NVIDIA H100 80GB HBM3", 9, 0, 132, 80, 227, 2048),
          card("NVIDIA H200", 9, 0, 132, 141, 227, 2048)};
}

TEST(KernelConfig, IsValidOnEveryCardProversUse) {
  for (const DeviceProfile& d : provers_cards()) {
    const KernelConfig config = choose_kernel_config(d);
    EXPECT_EQ(config.ntt_tile_log, launch::kNttPreferredTileLog) << d.name;
    EXPECT_LE(config.ntt_shared_bytes, d.shared_per_block_optin) << d.name;
    EXPECT_TRUE(config_problems(config, d).empty()) << d.name << ": " << config_problems(config, d).front();
  }
}

TEST(KernelConfig, TakesASmallerTileWhereSharedMemoryIsShort) {
  DeviceProfile d = card("a small-shared-memory device", 7, 5, 40, 16, 16, 1024);
  const KernelConfig config = choose_kernel_config(d);
  EXPECT_EQ(config.ntt_tile_log, 8u);  // 2^8 elements and twiddles: 16 KiB
  EXPECT_EQ(config.ntt_shared_bytes, std::size_t{16} * 1024);
  EXPECT_TRUE(config_problems(config, d).empty());
  // The preferred tile on that device is reported, not launched blind.
  KernelConfig preferred = choose_kernel_config(card("H100", 9, 0, 132, 80, 227, 2048));
  EXPECT_FALSE(config_problems(preferred, d).empty());
}

TEST(KernelConfig, RefusesADeviceThatHoldsNoTile) {
  DeviceProfile d = card("a device of 512 bytes of shared memory", 7, 5, 40, 16, 0, 1024);
  d.shared_per_block_optin = 512;
  try {
    choose_kernel_config(d);
    FAIL() << "a tile was chosen";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("512 bytes"), std::string::npos) << e.what();
  }
}

TEST(KernelConfig, NamesAFixedKernelTheDeviceCannotHold) {
  DeviceProfile d = card("a device of 256 threads per multiprocessor", 8, 6, 10, 8, 99, 256);
  const std::vector<std::string> problems = config_problems(choose_kernel_config(d), d);
  ASSERT_FALSE(problems.empty());
  EXPECT_NE(problems.front().find("G1 bucket accumulation"), std::string::npos) << problems.front();
}

TEST(Architectures, DefaultBuildRunsMachineCodeOnEveryCardProversUse) {
  const std::vector<CodeTarget> targets = parse_architectures(ZKPIPE_DEFAULT_CUDA_ARCHITECTURES);
  for (const DeviceProfile& d : provers_cards()) {
    const auto target = target_for(targets, d.major, d.minor);
    ASSERT_TRUE(target.has_value()) << d.name;
    EXPECT_TRUE(target->machine_code) << d.name << " would wait for the driver's JIT";
  }
  // The next architecture gets the newest PTX.
  const auto next = target_for(targets, 13, 0);
  ASSERT_TRUE(next.has_value());
  EXPECT_FALSE(next->machine_code);
  EXPECT_EQ(next->major, 12);
}

TEST(Architectures, FollowCudasCompatibilityRules) {
  const std::vector<CodeTarget> targets = parse_architectures("86-real;90a-real;120-virtual");
  ASSERT_EQ(targets.size(), 3u);
  EXPECT_EQ(target_for(targets, 8, 6)->describe(), "sm_86");
  EXPECT_EQ(target_for(targets, 8, 9)->describe(), "sm_86");  // a later minor of the same major
  EXPECT_FALSE(target_for(targets, 8, 0).has_value());        // an earlier minor: no
  EXPECT_EQ(target_for(targets, 9, 0)->describe(), "sm_90a");
  EXPECT_FALSE(target_for(targets, 10, 0).has_value());       // arch-specific code runs on 9.0 only
  EXPECT_EQ(target_for(targets, 12, 1)->describe(), "PTX compute_120");
  // Plain "XY" is machine code and PTX; machine code is preferred where it runs.
  const std::vector<CodeTarget> both = parse_architectures("80,89");
  EXPECT_EQ(target_for(both, 8, 9)->describe(), "sm_89");
  EXPECT_EQ(target_for(both, 9, 0)->describe(), "PTX compute_89");
  EXPECT_EQ(describe_targets(both), "sm_80 + PTX, sm_89 + PTX");
}

TEST(Architectures, RefuseEntriesTheyCannotRead) {
  for (const char* bad : {"86-fat", "sm_86", "9", "86x"}) {
    EXPECT_THROW(parse_architectures(bad), std::invalid_argument) << bad;
  }
}

TEST(Architectures, NoCodeMessageNamesTheCapabilityAndTheRebuild) {
  const std::string message = no_code_message(8, 6, parse_architectures("90a-real"));
  EXPECT_NE(message.find("compute capability 8.6"), std::string::npos) << message;
  EXPECT_NE(message.find("sm_90a"), std::string::npos) << message;
  EXPECT_NE(message.find("-DCMAKE_CUDA_ARCHITECTURES=86-real"), std::string::npos) << message;
}

TEST(Architectures, ThisBuildsListParses) {
  EXPECT_FALSE(built_architectures().empty());
}

}  // namespace
}  // namespace zkpipe::gpu
