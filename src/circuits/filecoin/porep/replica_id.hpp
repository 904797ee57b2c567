// The replica id that keys a sector's SDR labels:
// SHA-256(prover_id ‖ sector_id as u64 big-endian ‖ ticket ‖ comm_d ‖ porep_id),
// truncated to 254 bits (rust-fil-proofs generate_replica_id).
#pragma once

#include <array>
#include <cstdint>

#include "circuits/filecoin/core/node_bytes.hpp"
#include "circuits/filecoin/core/seal_proof.hpp"

namespace zkpipe::filecoin::porep {

using ReplicaId = core::NodeBytes;

ReplicaId replica_id(const std::array<std::uint8_t, 32>& prover_id, std::uint64_t sector_id,
                     const std::array<std::uint8_t, 32>& ticket, const core::NodeBytes& comm_d,
                     const core::PorepId& porep_id);

}  // namespace zkpipe::filecoin::porep
