#include "circuits/filecoin/porep/replica_id.hpp"

#include <vector>

#include "circuits/filecoin/hashers/sha256_domain.hpp"

namespace zkpipe::filecoin::porep {

ReplicaId replica_id(const std::array<std::uint8_t, 32>& prover_id, std::uint64_t sector_id,
                     const std::array<std::uint8_t, 32>& ticket, const core::NodeBytes& comm_d,
                     const core::PorepId& porep_id) {
  std::vector<std::uint8_t> message;
  message.reserve(32 + 8 + 32 + 32 + 32);
  message.insert(message.end(), prover_id.begin(), prover_id.end());
  for (int b = 7; b >= 0; --b) message.push_back(static_cast<std::uint8_t>(sector_id >> (8 * b)));
  message.insert(message.end(), ticket.begin(), ticket.end());
  message.insert(message.end(), comm_d.begin(), comm_d.end());
  message.insert(message.end(), porep_id.begin(), porep_id.end());
  return hashers::trimmed_sha256(message);
}

}  // namespace zkpipe::filecoin::porep
