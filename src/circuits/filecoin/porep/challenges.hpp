// Which nodes a PoRep partition proves (rust-fil-proofs stacked/vanilla/challenges.rs).
// Every draw is a 256-bit little-endian number x mapped to the node (x mod (nodes−1)) + 1,
// so node 0 is never challenged. Challenge j of the whole proof belongs to partition
// j / per_partition; j is the u32 counter the interactive and non-interactive hashes take.
//  - interactive: x = SHA-256(replica_id ‖ seed ‖ j as u32 little-endian);
//  - non-interactive: x = SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖
//    comm_r ‖ j as u32 little-endian);
//  - synthetic: before the seed exists, min(nodes, 2^18) synthetic challenges are the
//    32-byte blocks of a ChaCha20 keystream (nonce "synth-porep\0") keyed by BLAKE2b-256
//    keyed "filecoin.io|PoRep|1|Synthetic|1|Generation" over replica_id ‖ comm_r; the seed
//    then selects challenge j as synthetic challenge number (u32 little-endian at byte 4j
//    of a second keystream, keyed "…|Selection" over replica_id ‖ seed) mod their count.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "circuits/filecoin/core/node_bytes.hpp"
#include "circuits/filecoin/core/seal_proof.hpp"
#include "circuits/filecoin/porep/replica_id.hpp"

namespace zkpipe::filecoin::porep {

using ChallengeSeed = std::array<std::uint8_t, 32>;

// (x mod (nodes−1)) + 1 for x the 32 bytes little-endian. Throws std::invalid_argument
// for nodes outside 2..2^32−1.
std::uint64_t challenge_node(std::span<const std::uint8_t, 32> x, std::uint64_t sector_nodes);

// Partition `partition`'s challenges (partition < 256, as the reference takes it as a u8).
// Throw std::invalid_argument for a partition ≥ 256 or a counter past 2^32.
std::vector<std::uint64_t> interactive_challenges(std::uint64_t sector_nodes, const ReplicaId& replica_id,
                                                  const ChallengeSeed& seed, std::size_t per_partition,
                                                  std::size_t partition);
std::vector<std::uint64_t> non_interactive_challenges(std::uint64_t sector_nodes, const ReplicaId& replica_id,
                                                      const core::NodeBytes& comm_r, std::size_t per_partition,
                                                      std::size_t partition);

class SyntheticChallenges {
 public:
  static constexpr std::size_t kDefaultCount = std::size_t{1} << 18;

  // count = min(sector_nodes, 2^18), as every published seal proof uses.
  SyntheticChallenges(std::uint64_t sector_nodes, const ReplicaId& replica_id, const core::NodeBytes& comm_r);
  // Throws std::invalid_argument for a count of 0 or ≥ 2^32.
  SyntheticChallenges(std::uint64_t sector_nodes, const ReplicaId& replica_id, const core::NodeBytes& comm_r,
                      std::size_t count);

  std::size_t count() const { return count_; }
  // Throws std::out_of_range for i ≥ count().
  std::uint64_t challenge(std::size_t i) const;
  // Which synthetic challenges partition `partition` proves, and the nodes they are.
  std::vector<std::size_t> partition_indexes(const ChallengeSeed& seed, std::size_t per_partition,
                                             std::size_t partition) const;
  std::vector<std::uint64_t> partition_challenges(const ChallengeSeed& seed, std::size_t per_partition,
                                                  std::size_t partition) const;

 private:
  std::uint64_t sector_nodes_;
  ReplicaId replica_id_;
  std::size_t count_;
  std::array<std::uint8_t, 32> generation_key_;
};

// The challenges of partition `partition` as `proof` draws them: `seed` is unused by
// non-interactive proofs, `comm_r` by interactive ones.
std::vector<std::uint64_t> porep_challenges(const core::SealProof& proof, const ReplicaId& replica_id,
                                            const ChallengeSeed& seed, const core::NodeBytes& comm_r,
                                            std::size_t partition);

}  // namespace zkpipe::filecoin::porep
