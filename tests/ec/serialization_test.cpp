// zcash / IETF point encodings: known vectors, round trips, and every rejection.
#include "ec/serialization.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ec/subgroup.hpp"
#include "ec_test_util.hpp"

namespace zkpipe::ec {
namespace {

using test::from_hex;
using test::to_hex;
using Bytes = std::vector<std::uint8_t>;

// The standard generators, as in the zcash/IETF references and blst.
constexpr const char* kG1Compressed =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
constexpr const char* kG1Uncompressed =
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
constexpr const char* kG2Compressed =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
constexpr const char* kG2Uncompressed =
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";
// [2]G1 and [3]G1 compressed: the public keys of secret keys 2 and 3 in Ethereum
// consensus test fixtures ([2]G1 has the sort flag set).
constexpr const char* kTwoG1Compressed =
    "a572cbea904d67468808c8eb50a9450c9721db309128012543902d0ac358a62ae28f75bb8f1c7c42c39a8c5529bf0f4e";
constexpr const char* kThreeG1Compressed =
    "89ece308f9d1f0131765212deca99697b112d61f9be9a5f1f3780a51335b3ff981747a0b2ca2179b96d2c0c9024e5224";
// p, big-endian.
constexpr const char* kModulusHex =
    "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";

template <class Curve>
void expect_rejected(const Bytes& bytes, DecodeError expected,
                     SubgroupCheck check = SubgroupCheck::kCheck) {
  try {
    decode<Curve>(bytes, check);
    ADD_FAILURE() << "accepted " << to_hex(bytes);
  } catch (const PointDecodeError& e) {
    EXPECT_EQ(e.error(), expected) << e.what();
    EXPECT_NE(std::string(e.what()).find(describe(expected)), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(Curve::kName), std::string::npos) << e.what();
  }
}

// x + p in place of the 48-byte coordinate x at offset (one without flag bits).
Bytes add_modulus(Bytes bytes, std::size_t offset) {
  Bytes p = from_hex(kModulusHex);
  unsigned carry = 0;
  for (std::size_t i = 48; i-- > 0;) {
    unsigned sum = bytes[offset + i] + p[i] + carry;
    bytes[offset + i] = static_cast<std::uint8_t>(sum);
    carry = sum >> 8;
  }
  return bytes;
}

// p in place of the 48-byte coordinate at offset, keeping the flag bits of byte 0.
Bytes with_modulus(Bytes bytes, std::size_t offset) {
  const std::uint8_t flags = offset == 0 ? bytes[0] & 0xe0 : 0;
  Bytes p = from_hex(kModulusHex);
  std::copy(p.begin(), p.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset));
  bytes[0] |= flags;
  return bytes;
}

TEST(Serialization, G1GeneratorKnownEncodings) {
  EXPECT_EQ(to_hex(encode_compressed(kG1Generator)), kG1Compressed);
  EXPECT_EQ(to_hex(encode_uncompressed(kG1Generator)), kG1Uncompressed);
  EXPECT_EQ(decode_g1(from_hex(kG1Compressed)), kG1Generator);
  EXPECT_EQ(decode_g1(from_hex(kG1Uncompressed)), kG1Generator);
}

TEST(Serialization, G2GeneratorKnownEncodings) {
  EXPECT_EQ(to_hex(encode_compressed(kG2Generator)), kG2Compressed);
  EXPECT_EQ(to_hex(encode_uncompressed(kG2Generator)), kG2Uncompressed);
  EXPECT_EQ(decode_g2(from_hex(kG2Compressed)), kG2Generator);
  EXPECT_EQ(decode_g2(from_hex(kG2Uncompressed)), kG2Generator);
}

TEST(Serialization, SmallMultiplesOfG1KnownEncodings) {
  auto g = Jacobian<G1Curve>::from_affine(kG1Generator);
  EXPECT_EQ(to_hex(encode_compressed(g.dbl().to_affine())), kTwoG1Compressed);
  EXPECT_EQ(to_hex(encode_compressed((g.dbl() + g).to_affine())), kThreeG1Compressed);
  EXPECT_EQ(decode_g1(from_hex(kTwoG1Compressed)), g.dbl().to_affine());
}

TEST(Serialization, InfinityEncodings) {
  Bytes g1c(48, 0), g1u(96, 0), g2c(96, 0), g2u(192, 0);
  g1c[0] = g2c[0] = 0xc0;
  g1u[0] = g2u[0] = 0x40;
  auto e1c = encode_compressed(Affine<G1Curve>::identity());
  auto e1u = encode_uncompressed(Affine<G1Curve>::identity());
  auto e2c = encode_compressed(Affine<G2Curve>::identity());
  auto e2u = encode_uncompressed(Affine<G2Curve>::identity());
  EXPECT_EQ(Bytes(e1c.begin(), e1c.end()), g1c);
  EXPECT_EQ(Bytes(e1u.begin(), e1u.end()), g1u);
  EXPECT_EQ(Bytes(e2c.begin(), e2c.end()), g2c);
  EXPECT_EQ(Bytes(e2u.begin(), e2u.end()), g2u);
  EXPECT_TRUE(decode_g1(g1c).is_identity());
  EXPECT_TRUE(decode_g1(g1u).is_identity());
  EXPECT_TRUE(decode_g2(g2c).is_identity());
  EXPECT_TRUE(decode_g2(g2u).is_identity());
}

template <class Curve>
class RoundTripTest : public ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(RoundTripTest, Curves);

TYPED_TEST(RoundTripTest, BothFormsBothSigns) {
  test::Rng rng(71);
  bool saw_sort_flag[2] = {false, false};
  for (int i = 0; i < 4; ++i) {
    auto p = test::random_subgroup_point<TypeParam>(rng).to_affine();
    for (const auto& q : {p, -p}) {
      auto c = encode_compressed(q);
      auto u = encode_uncompressed(q);
      saw_sort_flag[(c[0] & 0x20) != 0] = true;
      EXPECT_EQ(decode<TypeParam>(c), q);
      EXPECT_EQ(decode<TypeParam>(u), q);
    }
  }
  EXPECT_TRUE(saw_sort_flag[0] && saw_sort_flag[1]);
}

TEST(SerializationRejects, WrongLength) {
  Bytes c = from_hex(kG1Compressed);
  for (std::size_t n : {0u, 1u, 47u, 49u, 95u, 97u, 192u}) {
    Bytes b(n, 0);
    std::copy_n(c.begin(), std::min<std::size_t>(n, 48), b.begin());
    expect_rejected<G1Curve>(b, DecodeError::kWrongLength);
  }
  expect_rejected<G2Curve>(from_hex(kG1Uncompressed), DecodeError::kCompressionFlagMismatch);
  expect_rejected<G2Curve>(from_hex(kG1Compressed), DecodeError::kWrongLength);
  expect_rejected<G1Curve>(from_hex(kG2Uncompressed), DecodeError::kWrongLength);
}

TEST(SerializationRejects, CompressionFlagMismatch) {
  Bytes c = from_hex(kG1Compressed);
  c[0] &= 0x7f;
  expect_rejected<G1Curve>(c, DecodeError::kCompressionFlagMismatch);
  Bytes u = from_hex(kG1Uncompressed);
  u[0] |= 0x80;
  expect_rejected<G1Curve>(u, DecodeError::kCompressionFlagMismatch);
  Bytes u2 = from_hex(kG2Uncompressed);
  u2[0] |= 0x80;
  expect_rejected<G2Curve>(u2, DecodeError::kCompressionFlagMismatch);
}

TEST(SerializationRejects, SortFlagOnUncompressed) {
  Bytes u = from_hex(kG1Uncompressed);
  u[0] |= 0x20;
  expect_rejected<G1Curve>(u, DecodeError::kSortFlagNotAllowed);
  Bytes inf(96, 0);
  inf[0] = 0x60;
  expect_rejected<G1Curve>(inf, DecodeError::kSortFlagNotAllowed);
  Bytes u2 = from_hex(kG2Uncompressed);
  u2[0] |= 0x20;
  expect_rejected<G2Curve>(u2, DecodeError::kSortFlagNotAllowed);
}

TEST(SerializationRejects, InfinityWithOtherBits) {
  Bytes c(48, 0);
  c[0] = 0xe0;  // infinity with the sort flag
  expect_rejected<G1Curve>(c, DecodeError::kInvalidInfinity);
  c[0] = 0xc1;
  expect_rejected<G1Curve>(c, DecodeError::kInvalidInfinity);
  c[0] = 0xc0;
  c[47] = 1;
  expect_rejected<G1Curve>(c, DecodeError::kInvalidInfinity);
  Bytes g1 = from_hex(kG1Compressed);
  g1[0] |= 0x40;  // a real x with the infinity flag
  expect_rejected<G1Curve>(g1, DecodeError::kInvalidInfinity);
  Bytes u(192, 0);
  u[0] = 0x40;
  u[100] = 0x10;
  expect_rejected<G2Curve>(u, DecodeError::kInvalidInfinity);
  Bytes c2(96, 0);
  c2[0] = 0xc0;
  c2[95] = 0x80;
  expect_rejected<G2Curve>(c2, DecodeError::kInvalidInfinity);
}

TEST(SerializationRejects, NonCanonicalCoordinates) {
  // A coordinate that carries the flag bits gets exactly p (p + x could reach the
  // flag bits); the others get x + p, congruent to the real coordinate, so a decoder
  // that reduced instead of rejecting would accept them.
  Bytes c = with_modulus(from_hex(kG1Compressed), 0);
  expect_rejected<G1Curve>(c, DecodeError::kNonCanonicalCoordinate);
  Bytes u = from_hex(kG1Uncompressed);
  expect_rejected<G1Curve>(with_modulus(u, 0), DecodeError::kNonCanonicalCoordinate);
  expect_rejected<G1Curve>(add_modulus(u, 48), DecodeError::kNonCanonicalCoordinate);
  // Each Fp part of a G2 point: x.c1 (flags), x.c0, y.c1, y.c0.
  Bytes u2 = from_hex(kG2Uncompressed);
  expect_rejected<G2Curve>(with_modulus(u2, 0), DecodeError::kNonCanonicalCoordinate);
  for (std::size_t offset : {48u, 96u, 144u}) {
    expect_rejected<G2Curve>(add_modulus(u2, offset), DecodeError::kNonCanonicalCoordinate);
  }
  Bytes c2 = from_hex(kG2Compressed);
  expect_rejected<G2Curve>(with_modulus(c2, 0), DecodeError::kNonCanonicalCoordinate);
  expect_rejected<G2Curve>(add_modulus(c2, 48), DecodeError::kNonCanonicalCoordinate);
}

TEST(SerializationRejects, NotOnCurve) {
  // Uncompressed: y off by one.
  Bytes u = from_hex(kG1Uncompressed);
  u[95] ^= 1;
  expect_rejected<G1Curve>(u, DecodeError::kNotOnCurve);
  Bytes u2 = from_hex(kG2Uncompressed);
  u2[191] ^= 1;
  expect_rejected<G2Curve>(u2, DecodeError::kNotOnCurve);
  Bytes zeros(96, 0);  // (0, 0) without the infinity flag
  expect_rejected<G1Curve>(zeros, DecodeError::kNotOnCurve);
  // Compressed: the first x for which x^3 + b is not a square.
  for (std::uint8_t last = 0;; ++last) {
    Fp x = Fp::from_u64(last);
    if ((x.square() * x + G1Curve::b()).legendre() == -1) {
      Bytes c(48, 0);
      c[0] = 0x80;
      c[47] = last;
      expect_rejected<G1Curve>(c, DecodeError::kNotOnCurve);
      break;
    }
  }
  for (std::uint8_t last = 0;; ++last) {
    Fp2 x{Fp::from_u64(last), Fp::zero()};
    if ((x.square() * x + G2Curve::b()).legendre() == -1) {
      Bytes c(96, 0);
      c[0] = 0x80;
      c[95] = last;
      expect_rejected<G2Curve>(c, DecodeError::kNotOnCurve);
      break;
    }
  }
}

template <class Curve>
class OutsideSubgroupTest : public ::testing::Test {};
TYPED_TEST_SUITE(OutsideSubgroupTest, Curves);

TYPED_TEST(OutsideSubgroupTest, RejectedUnlessTheCheckIsSkipped) {
  test::Rng rng(72);
  auto p = test::random_curve_point<TypeParam>(rng);
  ASSERT_FALSE(test::in_subgroup_by_order(p));
  auto c = encode_compressed(p);
  auto u = encode_uncompressed(p);
  expect_rejected<TypeParam>(Bytes(c.begin(), c.end()), DecodeError::kNotInSubgroup);
  expect_rejected<TypeParam>(Bytes(u.begin(), u.end()), DecodeError::kNotInSubgroup);
  EXPECT_EQ(decode<TypeParam>(c, SubgroupCheck::kSkipForTrustedInput), p);
  EXPECT_EQ(decode<TypeParam>(u, SubgroupCheck::kSkipForTrustedInput), p);
}

TEST(Serialization, MessagesNameTheFailedCheck) {
  try {
    decode_g1(Bytes(47, 0));
    FAIL();
  } catch (const PointDecodeError& e) {
    EXPECT_EQ(std::string(e.what()),
              "G1 point decoding failed: wrong length (got 47 bytes, expected 48 compressed or 96 "
              "uncompressed)");
  }
}

}  // namespace
}  // namespace zkpipe::ec
