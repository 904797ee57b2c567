// SnapDeals vanilla partition proofs (vanilla_proofs.hpp's UpdatePartitionProof, one per
// partition, as filecoin-proofs-api's generate_partition_proofs writes them) as the
// partitions of the SnapDeals circuit (update_circuit.hpp), and a partition back as one.
// The SHA-256 tree_d variant only: the one filecoin-proofs-api proves and Curio sends;
// the Poseidon variant's proofs have another layout and are refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "circuits/filecoin/api/vanilla_proofs.hpp"
#include "circuits/filecoin/update/update_circuit.hpp"

namespace zkpipe::filecoin::api {

using ff::Fr;

// The update's public commitments, as the proof request carries them.
struct UpdateCommitments {
  Fr comm_r_old;
  Fr comm_r_new;
  Fr comm_d_new;
};

// filecoin-proofs proves every update with h_default, the fourth of the six h values.
inline constexpr std::size_t kDefaultUpdateHIndex = 3;

// Partition k from its vanilla proof. Checks, naming the challenge: the apex leaf and
// challenge counts; every Merkle proof's shape (tree_r's for proof_r_old / proof_r_new,
// binary over the sector's nodes for proof_d_new); comm_r_old and comm_r_new are
// Poseidon(comm_c, root) of the tree_r roots every challenge proves to; every path leads
// from its leaf to its root and proof_d_new's to comm_d_new; the three proofs of a
// challenge prove the node the circuit draws from comm_r_new for that challenge; the
// node at the apex level is the apex leaf the circuit selects, and the apex leaves with
// challenge 0's top levels lead to comm_d_new; leaf_r_new = leaf_r_old + leaf_d_new · rho
// for h = shape.hs[h_index]. A partition that passes satisfies the circuit. Throws
// std::invalid_argument.
update::UpdatePartition update_partition_from_vanilla(const update::UpdateShape& shape,
                                                      const UpdatePartitionProof& vanilla, std::uint64_t k,
                                                      const UpdateCommitments& comms,
                                                      std::size_t h_index = kDefaultUpdateHIndex);

// The same from partition k's bincode blob, named "vanilla proof k" in errors.
update::UpdatePartition update_partition_from_bytes(const update::UpdateShape& shape,
                                                    std::span<const std::uint8_t> blob, std::uint64_t k,
                                                    const UpdateCommitments& comms,
                                                    std::size_t h_index = kDefaultUpdateHIndex);

// The vanilla proof filecoin-proofs writes for the partition: proof_r_new's leaf is
// leaf_r_old + leaf_d_new · rho, proof_d_new's path the levels below the apex, the apex
// tree's and the partition path's. Throws std::invalid_argument for the Poseidon variant.
UpdatePartitionProof update_vanilla_proof(const update::UpdateShape& shape, const update::UpdatePartition& partition);

}  // namespace zkpipe::filecoin::api
