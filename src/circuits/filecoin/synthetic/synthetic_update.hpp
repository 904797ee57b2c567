// A SnapDeals update of a small sector held whole in memory, made as rust-fil-proofs
// makes one (storage-proofs-update vanilla.rs): random old replica labels (tree_r_old,
// comm_c, comm_r_old), random new data (tree_d, binary SHA-256: comm_d_new), the new
// replica label_new = label_old + data·rho with rho = Poseidon_rand(phi, node >> (bits −
// h)) and phi = Poseidon_rand(comm_d_new, comm_r_old) (tree_r_new, comm_r_new), and a
// partition's challenges drawn from comm_r_new as the circuit draws them. Its partitions
// satisfy update_circuit.hpp's circuit; tests and small-sector benchmarks use them.
#pragma once

#include <cstdint>
#include <vector>

#include "circuits/filecoin/update/update_circuit.hpp"

namespace zkpipe::filecoin::synthetic {

struct SyntheticUpdate {
  update::UpdateShape shape;
  std::vector<update::UpdatePartition> partitions;
};

// Every partition of the shape's sector; sectors of at most 2^20 nodes (32 MiB), which
// are held whole. Throws std::invalid_argument otherwise.
SyntheticUpdate synthetic_update(const update::UpdateShape& shape, std::uint64_t seed, std::size_t h_index = 3);

// The same for a sector of any size without holding it: a committed-capacity sector
// updated with zero data (so the new replica is the old one and tree_d the all-zero
// tree), its old labels random at a few nodes and zero elsewhere (a sparse tree_r).
// The challenges still come from comm_r_new and every path leads to the roots the
// partition reports, so the circuit is satisfied; the challenged leaves are zero
// unless a challenge lands on one of the few random labels. For benchmarks at 32 GiB.
SyntheticUpdate synthetic_empty_update(const update::UpdateShape& shape, std::uint64_t seed, std::size_t h_index = 3);

}  // namespace zkpipe::filecoin::synthetic
