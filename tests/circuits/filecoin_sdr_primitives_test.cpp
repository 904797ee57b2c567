// BLAKE2b and ChaCha, the primitives under SDR's graph and synthetic challenges, against
// their specifications' published vectors.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "circuits/filecoin/hashers/blake2b.hpp"
#include "circuits/filecoin/hashers/chacha.hpp"
#include "circuits/filecoin_test_util.hpp"

namespace zkpipe::filecoin::hashers {
namespace {

using testing::bytes_from_hex;
using testing::hex_of;

std::string blake2b_hex(std::span<const std::uint8_t> message, std::size_t digest_bytes,
                        std::span<const std::uint8_t> key = {}) {
  std::vector<std::uint8_t> digest(digest_bytes);
  blake2b(message, digest, key);
  return hex_of(digest);
}

std::vector<std::uint8_t> counting(std::size_t n) {
  std::vector<std::uint8_t> out(n);
  std::iota(out.begin(), out.end(), std::uint8_t{0});
  return out;
}

// RFC 7693 Appendix A: BLAKE2b-512("abc").
TEST(FilecoinBlake2b, Rfc7693Abc) {
  const std::vector<std::uint8_t> abc = {'a', 'b', 'c'};
  EXPECT_EQ(blake2b_hex(abc, 64),
            "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
            "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
}

// BLAKE2b-512 of the empty message (the BLAKE2 reference's unkeyed KAT, first entry).
TEST(FilecoinBlake2b, EmptyMessage) {
  EXPECT_EQ(blake2b_hex({}, 64),
            "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
            "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce");
}

// The BLAKE2 reference's keyed KAT (blake2b-kat.txt: key 00..3f, input 00..len-1): the
// empty input (the key block alone) and the longest, 255 bytes over two more blocks.
TEST(FilecoinBlake2b, KeyedReferenceKat) {
  const std::vector<std::uint8_t> key = counting(64);
  EXPECT_EQ(blake2b_hex({}, 64, key),
            "10ebb67700b1868efb4417987acf4690ae9d972fb7a590c2f02871799aaa4786"
            "b5e996e8f0f4eb981fc214b005f42d2ff4233499391653df7aefcbc13fc51568");
  EXPECT_EQ(blake2b_hex(counting(255), 64, key),
            "142709d62e28fcccd0af97fad0f8465b971e82201dc51070faa0372aa43e9248"
            "4be1c1e73ba10906d5d1853db6a4106e0a7bf9800d373d6dee2d46d62ef2a461");
}

// The digest length is part of the parameter block: a short digest is not a prefix of the long one.
TEST(FilecoinBlake2b, DigestLengthChangesTheHash) {
  const std::vector<std::uint8_t> abc = {'a', 'b', 'c'};
  EXPECT_NE(blake2b_hex(abc, 32), blake2b_hex(abc, 64).substr(0, 64));
}

TEST(FilecoinBlake2b, RejectsBadLengths) {
  std::vector<std::uint8_t> none;
  std::vector<std::uint8_t> too_long(65);
  std::vector<std::uint8_t> ok(32);
  EXPECT_THROW(blake2b({}, none), std::invalid_argument);
  EXPECT_THROW(blake2b({}, too_long), std::invalid_argument);
  EXPECT_THROW(blake2b({}, ok, std::vector<std::uint8_t>(65)), std::invalid_argument);
}

ChaChaKey key_of(const std::vector<std::uint8_t>& bytes) {
  ChaChaKey key{};
  std::copy(bytes.begin(), bytes.end(), key.begin());
  return key;
}

// RFC 8439 §2.3.2: the block function with key 00..1f, nonce 000000090000004a00000000, counter 1.
TEST(FilecoinChaCha, Rfc8439BlockFunction) {
  const ChaChaKey key = key_of(counting(32));
  const std::array<std::uint32_t, 4> words = {1, 0x09000000, 0x4a000000, 0};
  EXPECT_EQ(hex_of(chacha_block(key, words, 20)),
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
            "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
}

// RFC 8439 Appendix A.1, test vectors #1 and #2 (zero key and nonce, counters 0 and 1),
// read as one keystream: block 1 starts at byte 64.
TEST(FilecoinChaCha, Rfc8439KeystreamVectors) {
  std::array<std::uint8_t, 128> stream{};
  chacha20_keystream(ChaChaKey{}, {}, 0, stream);
  EXPECT_EQ(hex_of(std::span(stream).first(64)),
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7"
            "da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586");
  EXPECT_EQ(hex_of(std::span(stream).last(64)),
            "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed"
            "29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f");
}

TEST(FilecoinChaCha, KeystreamAtAnOffsetIsASliceOfTheWhole) {
  const ChaChaKey key = key_of(counting(32));
  const std::array<std::uint8_t, 12> nonce = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  std::vector<std::uint8_t> whole(300);
  chacha20_keystream(key, nonce, 0, whole);
  std::vector<std::uint8_t> part(150);
  chacha20_keystream(key, nonce, 77, part);
  EXPECT_TRUE(std::equal(part.begin(), part.end(), whole.begin() + 77));
}

TEST(FilecoinChaCha, KeystreamPastTheCounterIsRefused) {
  std::array<std::uint8_t, 2> out{};
  EXPECT_THROW(chacha20_keystream(ChaChaKey{}, {}, (std::uint64_t{64} << 32) - 1, out), std::out_of_range);
}

// draft-strombergson-chacha-test-vectors, TC1 with 8 rounds (zero key, zero IV): the
// keystream's first block. ChaCha8Rng reads it 8 bytes at a time, little-endian.
TEST(FilecoinChaCha, ChaCha8ZeroKeyVector) {
  const std::string expected =
      "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
      "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42";
  EXPECT_EQ(hex_of(chacha_block(ChaChaKey{}, {0, 0, 0, 0}, 8)), expected);

  ChaCha8Rng rng(ChaChaKey{});
  const std::vector<std::uint8_t> bytes = bytes_from_hex(expected);
  for (std::size_t word = 0; word < 8; ++word) {
    std::uint64_t v = 0;
    for (int b = 7; b >= 0; --b) v = (v << 8) | bytes[8 * word + b];
    EXPECT_EQ(rng.next_u64(), v) << "word " << word;
  }
  // The ninth draw starts the next block (counter 1).
  const ChaChaBlock second = chacha_block(ChaChaKey{}, {1, 0, 0, 0}, 8);
  std::uint64_t v = 0;
  for (int b = 7; b >= 0; --b) v = (v << 8) | second[b];
  EXPECT_EQ(rng.next_u64(), v);
}

TEST(FilecoinChaCha, RejectsOddRoundCounts) {
  EXPECT_THROW(chacha_block(ChaChaKey{}, {0, 0, 0, 0}, 7), std::invalid_argument);
  EXPECT_THROW(chacha_block(ChaChaKey{}, {0, 0, 0, 0}, 0), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::filecoin::hashers
