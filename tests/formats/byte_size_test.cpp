// The one grammar for byte sizes in flags and configuration keys, and the formatter.
#include "formats/byte_size.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <limits>
#include <optional>
#include <string>

namespace zkpipe::formats {
namespace {

constexpr std::size_t kKiB = std::size_t{1} << 10;
constexpr std::size_t kGiB = std::size_t{1} << 30;

TEST(ByteSize, BinaryUnitsWithOrWithoutIBAndDecimalUnits) {
  EXPECT_EQ(parse_byte_size("4096"), 4096u);
  EXPECT_EQ(parse_byte_size("12B"), 12u);
  EXPECT_EQ(parse_byte_size("8GiB"), 8 * kGiB);
  EXPECT_EQ(parse_byte_size("8G"), 8 * kGiB);
  EXPECT_EQ(parse_byte_size("8 GiB"), 8 * kGiB);
  EXPECT_EQ(parse_byte_size("64K"), 64 * kKiB);
  EXPECT_EQ(parse_byte_size("2T"), 2 * 1024 * kGiB);
  EXPECT_EQ(parse_byte_size("8GB"), 8'000'000'000u);
  EXPECT_EQ(parse_byte_size("3TB"), 3'000'000'000'000u);
  EXPECT_EQ(parse_byte_size("5KB"), 5000u);
}

TEST(ByteSize, FractionsOfAUnitButNotOfAByte) {
  EXPECT_EQ(parse_byte_size("1.5GiB"), kGiB + kGiB / 2);
  EXPECT_EQ(parse_byte_size("0.25K"), 256u);
  EXPECT_EQ(parse_byte_size("1.5GB"), 1'500'000'000u);
  EXPECT_FALSE(parse_byte_size("1.5").has_value());
  EXPECT_FALSE(parse_byte_size("1.5B").has_value());
  EXPECT_FALSE(parse_byte_size("1.GiB").has_value());
  EXPECT_FALSE(parse_byte_size(".5GiB").has_value());
}

TEST(ByteSize, RefusesWhatIsNoSizeAndWhatOverflows) {
  for (const char* bad : {"", "G", "-1", "8g", "8 gib", "1e30", "12Q", "nan", "8GiBs", "0x10"}) {
    EXPECT_FALSE(parse_byte_size(bad).has_value()) << bad;
  }
  const std::string max = std::to_string(std::numeric_limits<std::size_t>::max());
  EXPECT_EQ(parse_byte_size(max), std::numeric_limits<std::size_t>::max());
  EXPECT_FALSE(parse_byte_size(max + "K").has_value());
  EXPECT_FALSE(parse_byte_size("99999999999999999999").has_value());
  EXPECT_FALSE(parse_byte_size("16777216T").has_value());  // 2^64 bytes
  EXPECT_TRUE(parse_byte_size("16777215.5T").has_value());
}

TEST(ByteSize, FormatsInBinaryUnitsWithOneDecimal) {
  EXPECT_EQ(format_bytes(512), "512.0 B");
  EXPECT_EQ(format_bytes(1536), "1.5 KiB");
  EXPECT_EQ(format_bytes(static_cast<double>(12 * kGiB)), "12.0 GiB");
}

}  // namespace
}  // namespace zkpipe::formats
