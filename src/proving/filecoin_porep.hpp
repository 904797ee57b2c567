// Filecoin PoRep C2 as the engine proves it: the C1 output and the sector's values
// checked and turned into the stacked circuit's partitions, and the seal proof's
// parameters from bellperson's .params fitted to that circuit — for `zkpipe filecoin
// c2`, `zkpipe bench --circuit filecoin-porep` and the daemon's Filecoin jobs alike.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "circuits/filecoin/api/c1_output.hpp"
#include "circuits/filecoin/api/sector_values.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"
#include "formats/bellperson_params.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "io/file_mapping.hpp"
#include "proving/bellperson_key.hpp"

namespace zkpipe::proving {

struct FilecoinPorepInstance {
  std::shared_ptr<const filecoin::porep::StackedCircuit> circuit;
  filecoin::api::SectorValues sector;
};

// Reads c1.json (a SealCommitPhase1Output, or lotus-bench's Commit2In wrapper around
// one) and sector.json and checks them together. Throws filecoin::api::C1OutputError
// naming the file and field, std::runtime_error for a file that cannot be read.
FilecoinPorepInstance read_filecoin_porep(const std::filesystem::path& c1_json,
                                          const std::filesystem::path& sector_json);
FilecoinPorepInstance filecoin_porep_instance(std::string_view c1_json, std::string_view c1_source,
                                              std::string_view sector_json, std::string_view sector_source);

// What the seal proof's circuit asks of its parameters (from its shape).
formats::CircuitRequirements filecoin_porep_requirements(const filecoin::core::SealProof& proof);

// The seal proof's proving key from its .params file. Throws formats::FormatError
// naming the file when it is not this seal proof's (IC count, query sizes, domain).
groth16::ProvingKey read_filecoin_porep_key(const std::filesystem::path& params, const filecoin::core::SealProof& proof,
                                            const formats::BellpersonReadOptions& options = {});

// The seal proof's proving key through zkpipe's native parameter file at `cache`
// (load_bellperson_key), the .params checked against the seal proof first.
CachedBellpersonKey load_filecoin_porep_key(const std::shared_ptr<const io::FileMapping>& params,
                                            const filecoin::core::SealProof& proof, const std::filesystem::path& cache,
                                            const formats::BellpersonReadOptions& options = {},
                                            const formats::ConvertProgress& progress = {});
CachedBellpersonKey load_filecoin_porep_key(const std::filesystem::path& params, const filecoin::core::SealProof& proof,
                                            const std::filesystem::path& cache,
                                            const formats::BellpersonReadOptions& options = {},
                                            const formats::ConvertProgress& progress = {});

// The public inputs of every partition, as verify_seal derives them from the sector's
// values alone.
std::vector<std::vector<ff::Fr>> filecoin_porep_public_inputs(const filecoin::api::SectorValues& sector);

}  // namespace zkpipe::proving
