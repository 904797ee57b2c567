// sector.json: what seal_commit_phase2 and verify_seal take beside the C1 output —
// the registered proof, the sector's identity (prover_id, sector_id), the chain's
// randomness (ticket, seed) and the commitments. Written by `zkpipe filecoin seal`,
// read by `filecoin c2` and `filecoin verify`:
//
//   {"registered_proof": "StackedDrg2KiBV1_1", "sector_size": 2048,
//    "prover_id": "<64 hex>", "sector_id": 1, "ticket": "<64 hex>", "seed": "<64 hex>",
//    "comm_r": "<64 hex>", "comm_d": "<64 hex>"}
//
// 32-byte values are lowercase hex of the bytes in order (comm_r and comm_d as the
// 32 bytes of their Fr, little-endian, as C1 outputs hold them).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "circuits/filecoin/core/node_bytes.hpp"
#include "circuits/filecoin/core/seal_proof.hpp"
#include "circuits/filecoin/porep/challenges.hpp"
#include "circuits/filecoin/porep/replica_id.hpp"

namespace zkpipe::filecoin::api {

using ProverId = std::array<std::uint8_t, 32>;
using Ticket = std::array<std::uint8_t, 32>;

struct SectorValues {
  const core::SealProof* registered_proof = nullptr;
  ProverId prover_id{};
  std::uint64_t sector_id = 0;
  Ticket ticket{};
  porep::ChallengeSeed seed{};
  core::NodeBytes comm_r{};
  core::NodeBytes comm_d{};

  bool operator==(const SectorValues&) const = default;

  // generate_replica_id over these values and the registered proof's porep_id.
  porep::ReplicaId replica_id() const;
};

// Throws C1OutputError (c1_output.hpp) naming `source` and the field: missing or of the
// wrong type, hex of the wrong length or with other characters, an unknown registered
// proof, a sector_size other than the registered proof's, comm_r / comm_d not below r.
SectorValues parse_sector_values(std::string_view json, std::string_view source);

std::string sector_values_to_json(const SectorValues& values);

}  // namespace zkpipe::filecoin::api
