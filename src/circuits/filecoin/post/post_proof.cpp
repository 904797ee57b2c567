#include "circuits/filecoin/post/post_proof.hpp"

#include <stdexcept>
#include <vector>

#include "hash/sha256.hpp"

namespace zkpipe::filecoin::post {

namespace {

struct SizeEntry {
  std::uint64_t bytes;
  const char* name;
  std::size_t window_sectors;
};

constexpr SizeEntry kSizes[] = {
    {std::uint64_t{2} << 10, "2KiB", 2},      {std::uint64_t{8} << 20, "8MiB", 2},
    {std::uint64_t{512} << 20, "512MiB", 2},  {std::uint64_t{32} << 30, "32GiB", 2349},
    {std::uint64_t{64} << 30, "64GiB", 2300},
};
constexpr std::size_t kWindowChallenges = 10;
constexpr std::size_t kWinningChallenges = 66;

const SizeEntry& size_entry(std::uint64_t bytes) {
  for (const SizeEntry& s : kSizes) {
    if (s.bytes == bytes) return s;
  }
  throw std::invalid_argument("no PoSt for sectors of " + std::to_string(bytes) +
                              " bytes (published: 2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
}

void put_le64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

}  // namespace

std::string PostProof::name() const {
  return std::string(kind == PostKind::kWindow ? "filecoin-window-post/" : "filecoin-winning-post/") +
         size_entry(sector_bytes).name;
}

PostProof post_proof(PostKind kind, std::uint64_t sector_bytes) {
  const SizeEntry& s = size_entry(sector_bytes);
  if (kind == PostKind::kWindow) return {kind, s.bytes, s.window_sectors, kWindowChallenges};
  return {kind, s.bytes, kWinningChallenges, 1};
}

std::uint64_t post_challenge_index(core::ApiVersion api, std::uint64_t sector_index, std::size_t challenge_count,
                                   std::size_t n) {
  if (api == core::ApiVersion::k1_2_0) return n;
  return sector_index * challenge_count + n;
}

std::uint64_t post_leaf_challenge(const PostRandomness& randomness, std::uint64_t sector_id,
                                  std::uint64_t challenge_index, std::uint64_t leaves) {
  if (leaves == 0) throw std::invalid_argument("post_leaf_challenge: a tree without leaves");
  std::vector<std::uint8_t> message(randomness.begin(), randomness.end());
  put_le64(message, sector_id);
  put_le64(message, challenge_index);
  const hash::sha256::Digest digest = hash::sha256::hash(message);
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | digest[static_cast<std::size_t>(i)];
  return v % leaves;
}

}  // namespace zkpipe::filecoin::post
