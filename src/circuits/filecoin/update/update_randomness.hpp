// SnapDeals' randomness outside the circuit (storage-proofs-update vanilla.rs), what
// update_circuit.hpp derives in constraints: phi from the commitments, rho for a node
// from phi and the node's high bits, and a partition's challenged nodes drawn from
// comm_r_new. The synthetic updates build their replicas with them; the vanilla proof
// reader (update_vanilla.hpp) checks a proof's nodes and labels against them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "circuits/filecoin/update/update_circuit.hpp"

namespace zkpipe::filecoin::update {

using ff::Fr;

// phi = Poseidon_rand(comm_d_new, comm_r_old).
Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old);

// rho = Poseidon_rand(phi, node >> (challenge bits − h)) for h = shape.hs[h_index]: the
// factor of the node's data in its new label (label_new = label_old + data·rho).
Fr update_rho(const UpdateShape& shape, const Fr& phi, std::size_t h_index, std::uint64_t node);

// Partition k's challenged nodes, in order: gen_challenge_bits' chunks of
// Poseidon_rand(comm_r_new, digest index), k as their high bits.
std::vector<std::uint64_t> update_challenges(const UpdateShape& shape, const Fr& comm_r_new, std::uint64_t k);

}  // namespace zkpipe::filecoin::update
