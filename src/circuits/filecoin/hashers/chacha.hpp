// The ChaCha stream cipher's keystream (RFC 8439's block function, any even round
// count), in the two shapes Filecoin's SDR uses:
//  - ChaCha8Rng: the bucket-sampling DRG draws its parents from ChaCha8 keyed by a
//    per-node seed; the Rust `rand_chacha::ChaCha8Rng` it is bit-exact with uses the
//    original layout (64-bit block counter from 0, 64-bit stream id 0) and reads each
//    u64 as the next 8 keystream bytes, little-endian.
//  - ChaCha20 with RFC 8439's 96-bit nonce and 32-bit counter: the synthetic-PoRep
//    challenge generators read its keystream at byte offsets.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace zkpipe::filecoin::hashers {

using ChaChaKey = std::array<std::uint8_t, 32>;
using ChaChaBlock = std::array<std::uint8_t, 64>;

// One keystream block. `words12_15` are the state's last four words (counter and
// nonce), laid out as the caller's variant wants; `rounds` is 8, 12 or 20.
ChaChaBlock chacha_block(const ChaChaKey& key, const std::array<std::uint32_t, 4>& words12_15, int rounds);

// rand_chacha's ChaCha8Rng::from_seed(seed), reduced to the one draw SDR makes: gen::<u64>().
class ChaCha8Rng {
 public:
  explicit ChaCha8Rng(const ChaChaKey& seed) : key_(seed) {}
  std::uint64_t next_u64();

 private:
  ChaChaKey key_;
  ChaChaBlock block_{};
  std::uint64_t next_block_ = 0;
  std::size_t used_ = sizeof(ChaChaBlock);  // bytes of block_ already read
};

// RFC 8439 ChaCha20: writes the keystream bytes [offset, offset + out.size()) into `out`.
// Throws std::out_of_range when the range passes the 2^32-block counter's end.
void chacha20_keystream(const ChaChaKey& key, const std::array<std::uint8_t, 12>& nonce, std::uint64_t offset,
                        std::span<std::uint8_t> out);

}  // namespace zkpipe::filecoin::hashers
