#include "circuits/filecoin/hashers/blake2b.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <string>

namespace zkpipe::filecoin::hashers {
namespace {

constexpr std::size_t kBlockBytes = 128;
constexpr std::size_t kMaxDigestBytes = 64;

constexpr std::array<std::uint64_t, 8> kIv = {
    0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

constexpr std::array<std::array<std::uint8_t, 16>, 10> kSigma = {{
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
}};

using Block = std::array<std::uint8_t, kBlockBytes>;

std::uint64_t load_le64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void mix(std::array<std::uint64_t, 16>& v, int a, int b, int c, int d, std::uint64_t x, std::uint64_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = std::rotr(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y;
  v[d] = std::rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 63);
}

// `bytes_so_far` counts every byte hashed including this block's (the offset counter t);
// messages here are far below 2^64 bytes, so t's high word stays 0.
void compress(std::array<std::uint64_t, 8>& h, const Block& block, std::uint64_t bytes_so_far, bool last) {
  std::array<std::uint64_t, 16> m{};
  for (std::size_t i = 0; i < 16; ++i) m[i] = load_le64(block.data() + 8 * i);
  std::array<std::uint64_t, 16> v{};
  for (std::size_t i = 0; i < 8; ++i) {
    v[i] = h[i];
    v[i + 8] = kIv[i];
  }
  v[12] ^= bytes_so_far;
  if (last) v[14] = ~v[14];
  for (std::size_t round = 0; round < 12; ++round) {
    const auto& s = kSigma[round % 10];
    mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (std::size_t i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[i + 8];
}

}  // namespace

void blake2b(std::span<const std::uint8_t> message, std::span<std::uint8_t> digest,
             std::span<const std::uint8_t> key) {
  if (digest.empty() || digest.size() > kMaxDigestBytes) {
    throw std::invalid_argument("blake2b: digest length " + std::to_string(digest.size()) +
                                " bytes, expected 1..64");
  }
  if (key.size() > kMaxDigestBytes) {
    throw std::invalid_argument("blake2b: key length " + std::to_string(key.size()) +
                                " bytes, expected at most 64");
  }
  std::array<std::uint64_t, 8> h = kIv;
  h[0] ^= 0x01010000 ^ (std::uint64_t{key.size()} << 8) ^ std::uint64_t{digest.size()};

  std::uint64_t hashed = 0;
  const auto absorb = [&](std::span<const std::uint8_t> bytes, std::uint64_t counted, bool last) {
    Block block{};
    std::copy(bytes.begin(), bytes.end(), block.begin());
    hashed += counted;
    compress(h, block, hashed, last);
  };
  // A key is hashed as a whole first block, zero-padded; the last block is the one
  // holding the final byte, or a zero block when there is no input at all.
  if (!key.empty()) absorb(key, kBlockBytes, message.empty());
  std::size_t offset = 0;
  while (message.size() - offset > kBlockBytes) {
    absorb(message.subspan(offset, kBlockBytes), kBlockBytes, false);
    offset += kBlockBytes;
  }
  if (!message.empty() || key.empty()) absorb(message.subspan(offset), message.size() - offset, true);
  for (std::size_t i = 0; i < digest.size(); ++i) digest[i] = static_cast<std::uint8_t>(h[i / 8] >> (8 * (i % 8)));
}

}  // namespace zkpipe::filecoin::hashers
