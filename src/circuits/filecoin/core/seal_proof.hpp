// Filecoin's registered seal proofs (filecoin-proofs-api's RegisteredSealProof): each
// names a sector size, the proofs API version that fixes the SDR graph's details, the
// way the PoRep challenges are drawn, and the 32-byte porep_id that seeds the graph.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "circuits/filecoin/core/sector_shape.hpp"

namespace zkpipe::filecoin::core {

// Version 1.0.0 is the legacy graph (the DRG's immediate predecessor is its last base
// parent, the expander parents are truncated to 32 bits before dividing); 1.1.0 and
// 1.2.0 build the same graph, with the predecessor first. Seal proofs V1 are 1.0.0,
// V1_1 are 1.1.0, and the synthetic and non-interactive variants are 1.2.0.
enum class ApiVersion { k1_0_0, k1_1_0, k1_2_0 };

enum class PorepChallenges {
  kInteractive,     // from the on-chain seed
  kSynthetic,       // the seed selects among challenges fixed before it (ChaCha20)
  kNonInteractive,  // from comm_r alone (FIP-0090/0092)
};

using PorepId = std::array<std::uint8_t, 32>;

struct SealProof {
  std::string_view name;      // e.g. "StackedDrg32GiBV1_1"
  std::uint64_t registered_id;  // the value in the porep_id's first 8 bytes
  std::uint64_t sector_bytes;
  ApiVersion api_version;
  PorepChallenges challenges;

  const SectorShape& shape() const { return sector_shape(sector_bytes); }
  std::size_t partitions() const;
  std::size_t challenges_per_partition() const;
  PorepId porep_id() const;
};

// All twenty, in registered-id order (0..19).
std::span<const SealProof> seal_proofs();

// The name bincode gives proof's VanillaSealProof variant: the V1 proof of the same
// sector size, whatever the version.
std::string_view vanilla_variant(const SealProof& proof);

// Throw std::invalid_argument naming what was asked and what exists.
const SealProof& seal_proof(std::string_view name);
const SealProof& seal_proof(std::uint64_t registered_id);

// registered id (u64 little-endian) ‖ nonce (u64 little-endian) ‖ 16 zero bytes. Every
// registered proof's nonce is 0.
PorepId make_porep_id(std::uint64_t registered_id, std::uint64_t nonce = 0);

}  // namespace zkpipe::filecoin::core
