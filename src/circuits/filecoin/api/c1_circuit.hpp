// From a commit-phase-1 output to the circuit a seal's C2 proves: each vanilla proof
// becomes the challenge assignment of stacked_circuit.hpp, after the output has been
// checked to belong to the sector (sector_values.hpp) — what seal_commit_phase2 and
// the circuit would otherwise only find out as a proof that does not verify.
#pragma once

#include <string_view>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/api/sector_values.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"

namespace zkpipe::filecoin::api {

// The seal proof's SDR graph (its node count, porep_id and api version).
porep::SdrGraph seal_graph(const core::SealProof& proof);

// Every partition of `c1` as the circuit takes it. Throws C1OutputError naming
// `source` and the field when the output is not the sector's: another registered
// proof; comm_r, comm_d, ticket or seed other than the sector's; a replica_id other
// than the one the sector's values give; a partition whose challenges are not those
// drawn for it (challenges.hpp); a vanilla proof whose trees' roots are not comm_d /
// comm_r_last / comm_c (comm_r = Poseidon(comm_c, comm_r_last)), whose leaves
// disagree (the column's label and the encoding's key), or whose parents are not the
// graph's parents of its node. parse_c1_output has checked the shape already.
porep::StackedCircuit stacked_circuit_from_c1(const C1Output& c1, const SectorValues& sector, std::string_view source);

// The circuit's shape for `proof` with every value zero: one partition's variables,
// constraints and public inputs, for setup, `circuit info` and parameter checks.
porep::StackedCircuit stacked_circuit_shape(const core::SealProof& proof);

}  // namespace zkpipe::filecoin::api
