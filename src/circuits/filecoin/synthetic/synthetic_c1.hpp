// A C1 output for a sector that was never sealed, for benchmarks at sizes whose sector
// cannot be held (32 GiB, 64 GiB): it is exactly what the circuit needs and nothing
// more. The sector is a committed-capacity (CC) sector — all data zero, as most real
// seals are — so comm_d is the all-zero tree's root, known before anything else; the
// replica id follows from it, and the challenges from the replica id and the seed.
// Only the nodes the challenges touch are given values: each challenged node's parents
// get random labels in every layer, the challenged node's own labels are computed from
// its parents' as SDR does (layer by layer, in node order, so a challenged node that is
// also a parent of another challenge keeps one set of labels), and its replica node is
// the encoding of its last label and its zero data. tree_c and tree_r_last are sparse
// trees (sparse_poseidon_tree.hpp): every leaf the challenges do not open is zero, so
// every path in the output leads to the commitments it reports. The circuit cannot
// tell it from a real seal; a real seal's comm_r it is not.
#pragma once

#include <cstdint>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/api/sector_values.hpp"

namespace zkpipe::filecoin::synthetic {

struct SyntheticSeal {
  api::C1Output c1;
  api::SectorValues values;
};

// Deterministic in `seed`: prover_id, sector_id, ticket, seed and every random label
// derive from it. Interactive proofs only: a synthetic or non-interactive proof's
// challenges depend on comm_r, which depends on the challenged nodes' labels; such a
// proof throws std::invalid_argument naming the interactive proof of the same sector
// size, whose partitions are the same circuit.
SyntheticSeal synthetic_c1(const core::SealProof& proof, std::uint64_t seed);

}  // namespace zkpipe::filecoin::synthetic
