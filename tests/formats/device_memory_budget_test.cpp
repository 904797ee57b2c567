// --device-memory and device_memory: one size for every GPU, or sizes by ordinal;
// every malformed part refused with what is wrong.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "formats/device_memory_budget.hpp"

namespace zkpipe::formats {
namespace {

constexpr std::size_t kOneGiB = std::size_t{1} << 30;

TEST(DeviceMemoryBudget, OneSizeIsEveryDevicesBudget) {
  const DeviceMemoryBudget b = parse_device_memory_budget(" 16GiB ");
  EXPECT_EQ(b.every, 16 * kOneGiB);
  EXPECT_EQ(b.of(0), 16 * kOneGiB);
  EXPECT_EQ(b.of(7), 16 * kOneGiB);
  EXPECT_FALSE(b.empty());
  EXPECT_EQ(b.describe(), "16.0 GiB");
  EXPECT_TRUE(DeviceMemoryBudget{}.empty());
  EXPECT_EQ(DeviceMemoryBudget{}.of(0), std::nullopt);
}

TEST(DeviceMemoryBudget, SizesByOrdinalLeaveOtherDevicesUnbudgeted) {
  const DeviceMemoryBudget b = parse_device_memory_budget("0=16GiB, 2 = 24 GiB");
  EXPECT_FALSE(b.every);
  EXPECT_EQ(b.of(0), 16 * kOneGiB);
  EXPECT_EQ(b.of(1), std::nullopt);
  EXPECT_EQ(b.of(2), 24 * kOneGiB);
  EXPECT_EQ(b.describe(), "16.0 GiB on device 0, 24.0 GiB on device 2");
}

void expect_refused(const std::string& text, const std::string& says) {
  try {
    parse_device_memory_budget(text);
    ADD_FAILURE() << "accepted '" << text << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << text << ": " << e.what();
  }
}

TEST(DeviceMemoryBudget, MalformedPartsAreRefusedByName) {
  expect_refused("a lot", "'a lot' is not a size");
  expect_refused("", "is not a size");
  expect_refused("100MiB", "less than the least zkpipe works in, 256 MiB");
  expect_refused("0=16GiB,24GiB", "'24GiB' names no device");
  expect_refused("x=16GiB", "'x' is not a CUDA device ordinal");
  expect_refused("-1=16GiB", "'-1' is not a CUDA device ordinal");
  expect_refused("0=16GiB,0=8GiB", "device 0 is given two sizes");
  expect_refused("1=", "is not a size");
  expect_refused("1=128MiB", "less than the least");
}

}  // namespace
}  // namespace zkpipe::formats
