// A C1 output for a sector that was never sealed, for benchmarks at sizes whose sector
// cannot be held (32 GiB, 64 GiB): it is exactly what the circuit needs and nothing
// more. Only the nodes that the challenges touch are given values — each challenged
// node's parents get random labels in every layer, its own labels are computed from
// them as SDR does, its data node is random and its replica node the encoding of the
// two — and every tree (tree_d, tree_c, tree_r_last) is a sparse tree: the nodes off
// the challenged paths are a fixed filler per level, the nodes on them hashed from
// their children, so every path in the output leads to the commitments it reports.
// The circuit cannot tell it from a real seal; a real seal's commitments it is not.
#pragma once

#include <cstdint>

#include "circuits/filecoin/c1_output.hpp"
#include "circuits/filecoin/sector_values.hpp"

namespace zkpipe::filecoin {

struct SyntheticSeal {
  C1Output c1;
  SectorValues values;
};

// Deterministic in `seed`: prover_id, sector_id, ticket, seed and every random value
// derive from it. Throws std::invalid_argument when two challenges collide in a way
// the sparse construction cannot give one value to (a node that is both challenged
// and another challenge's parent); the message asks for another seed.
SyntheticSeal synthetic_c1(const SealProof& proof, std::uint64_t seed);

}  // namespace zkpipe::filecoin
