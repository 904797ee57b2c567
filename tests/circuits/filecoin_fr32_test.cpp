// fr32 padding and the SHA-256 domain against rust-fil-proofs' fr32 and
// filecoin-hashers vectors.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "circuits/filecoin/core/fr32.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "hash/merkle.hpp"

namespace zkpipe::filecoin::core {
namespace {

using Bytes = std::vector<std::uint8_t>;

// fr32/src/reader.rs tests::test_simple_short: less than one unit.
TEST(Fr32, ShortInputIsPaddedToOneElement) {
  const Bytes data(30, 3);
  const Bytes padded = fr32::pad(data);
  ASSERT_EQ(padded.size(), 32u);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), padded.begin()));
  EXPECT_EQ(padded[30], 0);
  EXPECT_EQ(padded[31], 0);
}

// fr32/src/reader.rs tests::test_simple_single.
TEST(Fr32, ThirtyTwoOnesSpillIntoASecondElement) {
  const Bytes padded = fr32::pad(Bytes(32, 0xff));
  ASSERT_EQ(padded.size(), 64u);
  for (std::size_t i = 0; i < 31; ++i) EXPECT_EQ(padded[i], 0xff) << i;
  EXPECT_EQ(padded[31], 0b0011'1111);
  EXPECT_EQ(padded[32], 0b0000'0011);
}

// fr32/src/reader.rs tests::test_simple_127.
TEST(Fr32, OneHundredTwentySevenBytesFillFourElements) {
  const Bytes padded = fr32::pad(Bytes(127, 0xff));
  ASSERT_EQ(padded.size(), 128u);
  for (std::size_t i = 0; i < 31; ++i) EXPECT_EQ(padded[i], 0xff) << i;
  EXPECT_EQ(padded[31], 0b0011'1111);
  EXPECT_EQ(padded[32], 0b1111'1111);
}

// fr32/src/reader.rs tests::test_exotic: increasing bytes and 0xff/9 outliers, whose
// bits land shifted by 2 in the second element and by 4 in the third.
TEST(Fr32, ExoticLayoutMatchesTheReference) {
  Bytes source;
  for (int round = 0; round < 2; ++round) {
    for (std::uint8_t b = 1; b <= 31; ++b) source.push_back(b);
    source.push_back(0xff);
  }
  for (std::uint8_t b : {9, 9, 9, 0xff}) source.push_back(b);
  const Bytes buf = fr32::pad(source);
  for (std::size_t i = 0; i < 31; ++i) EXPECT_EQ(buf[i], i + 1) << i;
  EXPECT_EQ(buf[31], 63);
  EXPECT_EQ(buf[32], (1 << 2) | 0b11);
  for (std::size_t i = 33; i < 63; ++i) EXPECT_EQ(buf[i], static_cast<std::uint8_t>((i - 31) << 2)) << i;
  EXPECT_EQ(buf[63], 0x0f << 2);
  EXPECT_EQ(buf[64], 0x0f | 9 << 4);
  EXPECT_EQ(buf[65], static_cast<std::uint8_t>(9 << 4));
  EXPECT_EQ(buf[66], static_cast<std::uint8_t>(9 << 4));
  EXPECT_EQ(buf[67], 0xf0);
  EXPECT_EQ(buf[68], 0x0f);
}

// fr32/src/padding.rs tests::test_read_write_padded: 1016 bytes of ones pad to
// to_padded_bytes(1016) = 1024 bytes and unpad back.
TEST(Fr32, OnesRoundTrip) {
  const Bytes data(1016, 0xff);
  const Bytes padded = fr32::pad(data);
  EXPECT_EQ(padded.size(), fr32::padded_size(1016));
  EXPECT_EQ(padded.size(), 1024u);
  EXPECT_EQ(fr32::unpad(padded, data.size()), data);
}

// fr32/src/padding.rs tests::test_read_write_padded_offset (from offset 0): random
// data, recovered whole and as a 44-byte prefix; asking for more than the padded
// bytes hold is an error.
TEST(Fr32, RandomDataRoundTrips) {
  std::mt19937_64 rng(1016);
  Bytes data(1016);
  for (auto& b : data) b = static_cast<std::uint8_t>(rng());
  const Bytes padded = fr32::pad(data);
  EXPECT_EQ(fr32::unpad(padded, 1016), data);
  EXPECT_EQ(fr32::unpad(padded, 44), Bytes(data.begin(), data.begin() + 44));
  EXPECT_THROW(fr32::unpad(padded, 1017), std::invalid_argument);
  EXPECT_THROW(fr32::unpad(std::span(padded).first(1000), 10), std::invalid_argument);
  for (std::size_t e = 0; e < padded.size() / 32; ++e) EXPECT_EQ(padded[32 * e + 31] & 0xc0, 0) << e;
}

// Sizes: 127 raw bytes are 128 padded (filecoin-proofs' MIN_PIECE_SIZE, 127, pads to
// the 128-byte minimum piece); a 2 KiB sector holds 2032 raw bytes.
TEST(Fr32, SizesConvertBothWays) {
  EXPECT_EQ(fr32::padded_size(127), 128u);
  EXPECT_EQ(fr32::unpadded_size(128), 127u);
  EXPECT_EQ(fr32::unpadded_size(2048), 2032u);
  EXPECT_EQ(fr32::padded_size(2032), 2048u);
  EXPECT_EQ(fr32::unpadded_size(std::uint64_t{32} << 30), (std::uint64_t{32} << 30) / 128 * 127);
}

hashers::Sha256Domain filled(std::uint8_t fill, std::uint8_t last) {
  hashers::Sha256Domain d{};
  d.fill(fill);
  d[31] = last;
  return d;
}

// fr32/src/lib.rs tests::test_bytes_into_fr_into_bytes: which 32-byte strings are
// canonical Fr representations.
TEST(Sha256Domain, OnlyCanonicalBytesAreFieldElements) {
  hashers::Sha256Domain counting{};
  for (std::size_t i = 0; i < 32; ++i) counting[i] = static_cast<std::uint8_t>(i);
  EXPECT_EQ(hashers::fr_to_domain(hashers::domain_to_fr(counting)), counting);
  EXPECT_THROW(hashers::domain_to_fr(filled(255, 115)), std::invalid_argument);
  EXPECT_EQ(hashers::fr_to_domain(hashers::domain_to_fr(filled(255, 114))), filled(255, 114));
  hashers::Sha256Domain below = filled(255, 115);
  below[30] = 236;
  EXPECT_EQ(hashers::fr_to_domain(hashers::domain_to_fr(below)), below);
  below[30] = 237;
  EXPECT_THROW(hashers::domain_to_fr(below), std::invalid_argument);
}

// filecoin-hashers trim_to_fr32: the digest is SHA-256 with the last byte's two top
// bits cleared; hash2 is the digest of the 64-byte concatenation.
TEST(Sha256Domain, DigestsAreTrimmedSha256) {
  const Bytes abc{'a', 'b', 'c'};
  // FIPS 180-4 SHA-256("abc") = ba7816bf…f20015ad; 0xad & 0x3f = 0x2d.
  const hashers::Sha256Domain d = hashers::trimmed_sha256(abc);
  EXPECT_EQ(d[0], 0xba);
  EXPECT_EQ(d[30], 0x15);
  EXPECT_EQ(d[31], 0x2d);
  const hashers::Sha256Domain a = filled(1, 1);
  const hashers::Sha256Domain b = filled(2, 2);
  Bytes ab(a.begin(), a.end());
  ab.insert(ab.end(), b.begin(), b.end());
  EXPECT_EQ(hashers::sha256_hash2(a, b), hashers::trimmed_sha256(ab));
  EXPECT_EQ(hashers::sha256_hash2(a, b), hash::merkle::sha256_node(a, b));
  EXPECT_NO_THROW(hashers::domain_to_fr(hashers::sha256_hash2(a, b)));
}

}  // namespace
}  // namespace zkpipe::filecoin::core
