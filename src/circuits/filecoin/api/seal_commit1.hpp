// A native seal of a small sector (rust-fil-proofs' seal_pre_commit_phase1/2 and
// seal_commit_phase1, for the sector sizes a test or an example can hold in memory,
// 2 KiB and 8 MiB): the data padded to nodes, comm_d, the replica id, the labels,
// the replica and its trees, then the vanilla proofs of every partition's challenges
// in the C1 output's form.
#pragma once

#include <span>
#include <vector>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/api/sector_values.hpp"
#include "circuits/filecoin/porep/stacked_replica.hpp"

namespace zkpipe::filecoin::api {

struct SealedSector {
  porep::InMemoryReplica replica;
  SectorValues values;  // comm_r and comm_d filled from the replica
};

// Seals `data`: the sector's nodes, sector_bytes of them (each node a canonical Fr,
// e.g. fr32-padded bytes). `values` gives the proof, prover_id, sector_id, ticket and
// seed; its comm_r and comm_d are ignored. Throws std::invalid_argument naming what
// is wrong (data of another size, a node that is not canonical).
SealedSector seal_sector(const SectorValues& values, std::span<const core::NodeBytes> data);

// The C1 output of a sealed sector: every partition's challenges (drawn from its
// values) with their vanilla proofs, as seal_commit_phase1 returns it.
C1Output seal_commit_phase1(const SealedSector& sector);

}  // namespace zkpipe::filecoin::api
