// A preset circuit instance: the circuit family, its size preset, the seed its
// witnesses and public inputs derive from, and its number of partitions.
//  - porep-like: the presets tiny … 2e27 (circuits/porep_like/preset.hpp);
//  - filecoin-porep: Filecoin's PoRep C2 for a sector size (2KiB, 8MiB, 512MiB, 32GiB,
//    64GiB; the registered proof StackedDrg<size>V1_1), its partitions from a synthetic
//    C1 output (circuits/filecoin/synthetic/synthetic_c1.hpp) checked and converted as `filecoin
//    c2` converts a real one; a proof has the registered proof's partitions, and fewer
//    may be asked for (the first ones);
//  - filecoin-window-post, filecoin-winning-post: Filecoin's PoSt for a sector size, its
//    partitions (window: full ones of the size's sector count; winning: one) from
//    synthetic sectors (circuits/filecoin/synthetic/synthetic_post.hpp);
//  - filecoin-snapdeals, filecoin-snapdeals-poseidon: Filecoin's SnapDeals circuit (SHA-256
//    tree_d, 16 partitions at 32 GiB; or the Poseidon variant, one), its partitions from an
//    update made as rust-fil-proofs makes one (circuits/filecoin/synthetic/synthetic_update.hpp: held
//    whole at 2KiB and 8MiB, an empty update of a sparse replica above).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "circuits/filecoin/synthetic/synthetic_c1.hpp"
#include "r1cs/partitioned_circuit.hpp"

namespace zkpipe::proving {

struct PresetWorkload {
  std::string circuit = "porep-like";
  std::string preset = "tiny";
  std::uint64_t seed = 1;
  std::size_t partitions = 1;
};

std::vector<std::string> circuit_names();
// The presets of `circuit` (sector sizes for filecoin-porep). Throws
// std::invalid_argument naming the known circuits.
std::vector<std::string> preset_names(const std::string& circuit);

// What one proof of a workload starts from, made before its clock starts: for
// filecoin-porep the synthetic C1 output and the sector's values (what a sealer hands
// C2: its making is C1's work, not C2's), which make_circuit checks and converts (C2's
// own work); for the PoSt and SnapDeals circuits the circuit itself, over synthetic
// sectors or an update (the vanilla proofs a prover hands the SNARK); for porep-like
// nothing (its witness derives from the seed as it is synthesized).
struct WorkloadInput {
  PresetWorkload workload;
  std::shared_ptr<const filecoin::synthetic::SyntheticSeal> seal;  // filecoin-porep only
  std::shared_ptr<const r1cs::PartitionedCircuit> circuit;         // ready-made (PoSt, SnapDeals)
};

// Throws std::invalid_argument naming the valid circuits / presets, or more partitions
// than the proof has.
WorkloadInput make_input(const PresetWorkload& workload);
std::shared_ptr<const r1cs::PartitionedCircuit> make_circuit(const WorkloadInput& input);
// Both steps at once.
std::shared_ptr<const r1cs::PartitionedCircuit> make_circuit(const PresetWorkload& workload);
// A circuit of the workload's shape for counting: every value zero for the Filecoin
// circuits (no C1 output, sectors or update to make); porep-like as make_circuit.
std::shared_ptr<const r1cs::PartitionedCircuit> make_shape_circuit(const PresetWorkload& workload);

}  // namespace zkpipe::proving
