#include "circuits/filecoin/porep/challenges.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>

#include "circuits/filecoin/hashers/blake2b.hpp"
#include "circuits/filecoin/hashers/chacha.hpp"
#include "hash/sha256.hpp"

namespace zkpipe::filecoin::porep {
namespace {

constexpr std::string_view kNonInteractiveTag = "filecoin.io|PoRep|1|NonInteractive|1";
constexpr std::string_view kGenerationKey = "filecoin.io|PoRep|1|Synthetic|1|Generation";
constexpr std::string_view kSelectionKey = "filecoin.io|PoRep|1|Synthetic|1|Selection";
constexpr std::array<std::uint8_t, 12> kSynthNonce = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
constexpr std::size_t kSynthChallengeBytes = 32;
constexpr std::size_t kSynthIndexBytes = 4;
constexpr std::size_t kMaxPartitions = 256;

void check_nodes(std::uint64_t sector_nodes) {
  if (sector_nodes < 2 || sector_nodes > 0xffffffffu) {
    throw std::invalid_argument("PoRep challenges: " + std::to_string(sector_nodes) +
                                " sector nodes, expected 2..2^32-1");
  }
}

// The first counter j of the partition; throws when the partition's counters do not fit a u32.
std::uint64_t first_counter(std::size_t per_partition, std::size_t partition) {
  if (partition >= kMaxPartitions) {
    throw std::invalid_argument("PoRep challenges: partition " + std::to_string(partition) + ", expected 0..255");
  }
  const std::uint64_t first = std::uint64_t{per_partition} * partition;
  if (first + per_partition > (std::uint64_t{1} << 32)) {
    throw std::invalid_argument("PoRep challenges: " + std::to_string(per_partition) +
                                " challenges per partition overflow the u32 counter");
  }
  return first;
}

template <typename Prefix>
std::vector<std::uint64_t> hashed_challenges(std::uint64_t sector_nodes, const Prefix& prefix,
                                             std::size_t per_partition, std::size_t partition) {
  check_nodes(sector_nodes);
  const std::uint64_t first = first_counter(per_partition, partition);
  std::vector<std::uint8_t> message(prefix.begin(), prefix.end());
  message.resize(message.size() + 4);
  std::vector<std::uint64_t> out;
  out.reserve(per_partition);
  for (std::uint64_t j = first; j < first + per_partition; ++j) {
    for (int b = 0; b < 4; ++b) message[message.size() - 4 + b] = static_cast<std::uint8_t>(j >> (8 * b));
    const auto digest = hash::sha256::hash(message);
    out.push_back(challenge_node(digest, sector_nodes));
  }
  return out;
}

std::array<std::uint8_t, 32> synth_key(std::string_view key, const ReplicaId& replica_id,
                                       const std::array<std::uint8_t, 32>& other) {
  std::array<std::uint8_t, 64> message{};
  std::copy(replica_id.begin(), replica_id.end(), message.begin());
  std::copy(other.begin(), other.end(), message.begin() + 32);
  const std::span<const std::uint8_t> key_bytes(reinterpret_cast<const std::uint8_t*>(key.data()), key.size());
  std::array<std::uint8_t, 32> out{};
  hashers::blake2b(message, out, key_bytes);
  return out;
}

}  // namespace

std::uint64_t challenge_node(std::span<const std::uint8_t, 32> x, std::uint64_t sector_nodes) {
  check_nodes(sector_nodes);
  const std::uint64_t modulus = sector_nodes - 1;
  unsigned __int128 remainder = 0;
  for (std::size_t i = x.size(); i-- > 0;) remainder = ((remainder << 8) | x[i]) % modulus;
  return static_cast<std::uint64_t>(remainder) + 1;
}

std::vector<std::uint64_t> interactive_challenges(std::uint64_t sector_nodes, const ReplicaId& replica_id,
                                                  const ChallengeSeed& seed, std::size_t per_partition,
                                                  std::size_t partition) {
  std::array<std::uint8_t, 64> prefix{};
  std::copy(replica_id.begin(), replica_id.end(), prefix.begin());
  std::copy(seed.begin(), seed.end(), prefix.begin() + 32);
  return hashed_challenges(sector_nodes, prefix, per_partition, partition);
}

std::vector<std::uint64_t> non_interactive_challenges(std::uint64_t sector_nodes, const ReplicaId& replica_id,
                                                      const core::NodeBytes& comm_r, std::size_t per_partition,
                                                      std::size_t partition) {
  std::vector<std::uint8_t> prefix(kNonInteractiveTag.begin(), kNonInteractiveTag.end());
  prefix.insert(prefix.end(), replica_id.begin(), replica_id.end());
  prefix.insert(prefix.end(), comm_r.begin(), comm_r.end());
  return hashed_challenges(sector_nodes, prefix, per_partition, partition);
}

SyntheticChallenges::SyntheticChallenges(std::uint64_t sector_nodes, const ReplicaId& replica_id,
                                         const core::NodeBytes& comm_r)
    : SyntheticChallenges(sector_nodes, replica_id, comm_r,
                          static_cast<std::size_t>(std::min<std::uint64_t>(sector_nodes, kDefaultCount))) {}

SyntheticChallenges::SyntheticChallenges(std::uint64_t sector_nodes, const ReplicaId& replica_id,
                                         const core::NodeBytes& comm_r, std::size_t count)
    : sector_nodes_(sector_nodes),
      replica_id_(replica_id),
      count_(count),
      generation_key_(synth_key(kGenerationKey, replica_id, comm_r)) {
  check_nodes(sector_nodes);
  if (count == 0 || count > 0xffffffffu) {
    throw std::invalid_argument("SyntheticChallenges: " + std::to_string(count) + " challenges, expected 1..2^32-1");
  }
}

std::uint64_t SyntheticChallenges::challenge(std::size_t i) const {
  if (i >= count_) {
    throw std::out_of_range("SyntheticChallenges: challenge " + std::to_string(i) + " of " + std::to_string(count_));
  }
  std::array<std::uint8_t, kSynthChallengeBytes> x{};
  hashers::chacha20_keystream(generation_key_, kSynthNonce, std::uint64_t{i} * kSynthChallengeBytes, x);
  return challenge_node(x, sector_nodes_);
}

std::vector<std::size_t> SyntheticChallenges::partition_indexes(const ChallengeSeed& seed, std::size_t per_partition,
                                                                std::size_t partition) const {
  const std::uint64_t first = first_counter(per_partition, partition);
  std::vector<std::uint8_t> stream(per_partition * kSynthIndexBytes);
  hashers::chacha20_keystream(synth_key(kSelectionKey, replica_id_, seed), kSynthNonce, first * kSynthIndexBytes,
                              stream);
  std::vector<std::size_t> out;
  out.reserve(per_partition);
  for (std::size_t c = 0; c < per_partition; ++c) {
    std::uint32_t index = 0;
    for (int b = 3; b >= 0; --b) index = (index << 8) | stream[c * kSynthIndexBytes + b];
    out.push_back(index % count_);
  }
  return out;
}

std::vector<std::uint64_t> SyntheticChallenges::partition_challenges(const ChallengeSeed& seed,
                                                                     std::size_t per_partition,
                                                                     std::size_t partition) const {
  std::vector<std::uint64_t> out;
  out.reserve(per_partition);
  for (std::size_t i : partition_indexes(seed, per_partition, partition)) out.push_back(challenge(i));
  return out;
}

std::vector<std::uint64_t> porep_challenges(const core::SealProof& proof, const ReplicaId& replica_id,
                                            const ChallengeSeed& seed, const core::NodeBytes& comm_r,
                                            std::size_t partition) {
  const std::uint64_t nodes = proof.shape().nodes();
  const std::size_t per_partition = proof.challenges_per_partition();
  if (partition >= proof.partitions()) {
    throw std::invalid_argument(std::string(proof.name) + ": partition " + std::to_string(partition) + " of " +
                                std::to_string(proof.partitions()));
  }
  switch (proof.challenges) {
    case core::PorepChallenges::kInteractive:
      return interactive_challenges(nodes, replica_id, seed, per_partition, partition);
    case core::PorepChallenges::kSynthetic:
      return SyntheticChallenges(nodes, replica_id, comm_r).partition_challenges(seed, per_partition, partition);
    case core::PorepChallenges::kNonInteractive:
      return non_interactive_challenges(nodes, replica_id, comm_r, per_partition, partition);
  }
  throw std::logic_error("porep_challenges: unknown challenge kind");
}

}  // namespace zkpipe::filecoin::porep
