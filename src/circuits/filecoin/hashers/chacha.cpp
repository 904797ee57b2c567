#include "circuits/filecoin/hashers/chacha.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace zkpipe::filecoin::hashers {
namespace {

// "expand 32-byte k", little-endian.
constexpr std::array<std::uint32_t, 4> kExpand32ByteK = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

std::uint32_t load_le32(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | (std::uint32_t{p[1]} << 8) | (std::uint32_t{p[2]} << 16) | (std::uint32_t{p[3]} << 24);
}

void quarter_round(std::array<std::uint32_t, 16>& x, int a, int b, int c, int d) {
  x[a] += x[b];
  x[d] = std::rotl(x[d] ^ x[a], 16);
  x[c] += x[d];
  x[b] = std::rotl(x[b] ^ x[c], 12);
  x[a] += x[b];
  x[d] = std::rotl(x[d] ^ x[a], 8);
  x[c] += x[d];
  x[b] = std::rotl(x[b] ^ x[c], 7);
}

}  // namespace

ChaChaBlock chacha_block(const ChaChaKey& key, const std::array<std::uint32_t, 4>& words12_15, int rounds) {
  if (rounds <= 0 || rounds % 2 != 0) {
    throw std::invalid_argument("chacha_block: " + std::to_string(rounds) + " rounds, expected a positive even count");
  }
  std::array<std::uint32_t, 16> state{};
  for (int i = 0; i < 4; ++i) state[i] = kExpand32ByteK[i];
  for (int i = 0; i < 8; ++i) state[4 + i] = load_le32(key.data() + 4 * i);
  for (int i = 0; i < 4; ++i) state[12 + i] = words12_15[i];

  std::array<std::uint32_t, 16> x = state;
  for (int r = 0; r < rounds; r += 2) {
    quarter_round(x, 0, 4, 8, 12);
    quarter_round(x, 1, 5, 9, 13);
    quarter_round(x, 2, 6, 10, 14);
    quarter_round(x, 3, 7, 11, 15);
    quarter_round(x, 0, 5, 10, 15);
    quarter_round(x, 1, 6, 11, 12);
    quarter_round(x, 2, 7, 8, 13);
    quarter_round(x, 3, 4, 9, 14);
  }
  ChaChaBlock out{};
  for (int i = 0; i < 16; ++i) {
    const std::uint32_t w = x[i] + state[i];
    for (int b = 0; b < 4; ++b) out[4 * i + b] = static_cast<std::uint8_t>(w >> (8 * b));
  }
  return out;
}

std::uint64_t ChaCha8Rng::next_u64() {
  // Draws of 8 bytes never straddle a 64-byte block, so refilling per block reads
  // the same keystream as rand_chacha's four-block buffer.
  if (used_ == block_.size()) {
    const std::array<std::uint32_t, 4> counter_and_stream = {static_cast<std::uint32_t>(next_block_),
                                                             static_cast<std::uint32_t>(next_block_ >> 32), 0, 0};
    block_ = chacha_block(key_, counter_and_stream, 8);
    ++next_block_;
    used_ = 0;
  }
  std::uint64_t v = 0;
  for (int b = 7; b >= 0; --b) v = (v << 8) | block_[used_ + b];
  used_ += 8;
  return v;
}

void chacha20_keystream(const ChaChaKey& key, const std::array<std::uint8_t, 12>& nonce, std::uint64_t offset,
                        std::span<std::uint8_t> out) {
  constexpr std::uint64_t kBlockBytes = sizeof(ChaChaBlock);
  constexpr std::uint64_t kStreamBytes = kBlockBytes << 32;
  if (offset > kStreamBytes || out.size() > kStreamBytes - offset) {
    throw std::out_of_range("chacha20_keystream: bytes [" + std::to_string(offset) + ", +" +
                            std::to_string(out.size()) + ") pass the keystream's end at 2^38 bytes");
  }
  std::size_t written = 0;
  while (written < out.size()) {
    const std::uint64_t position = offset + written;
    const std::array<std::uint32_t, 4> words = {static_cast<std::uint32_t>(position / kBlockBytes),
                                                load_le32(nonce.data()), load_le32(nonce.data() + 4),
                                                load_le32(nonce.data() + 8)};
    const ChaChaBlock block = chacha_block(key, words, 20);
    for (std::uint64_t i = position % kBlockBytes; i < kBlockBytes && written < out.size(); ++i) {
      out[written++] = block[i];
    }
  }
}

}  // namespace zkpipe::filecoin::hashers
