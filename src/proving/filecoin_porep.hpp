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

#include "circuits/filecoin/c1_output.hpp"
#include "circuits/filecoin/sector_values.hpp"
#include "circuits/filecoin/stacked_circuit.hpp"
#include "formats/bellperson_params.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "io/file_mapping.hpp"

namespace zkpipe::proving {

struct FilecoinPorepInstance {
  std::shared_ptr<const filecoin::StackedCircuit> circuit;
  filecoin::SectorValues sector;
};

// Reads c1.json (a SealCommitPhase1Output, or lotus-bench's Commit2In wrapper around
// one) and sector.json and checks them together. Throws filecoin::C1OutputError
// naming the file and field, std::runtime_error for a file that cannot be read.
FilecoinPorepInstance read_filecoin_porep(const std::filesystem::path& c1_json,
                                          const std::filesystem::path& sector_json);
FilecoinPorepInstance filecoin_porep_instance(std::string_view c1_json, std::string_view c1_source,
                                              std::string_view sector_json, std::string_view sector_source);

// What the seal proof's circuit asks of its parameters (from its shape).
formats::CircuitRequirements filecoin_porep_requirements(const filecoin::SealProof& proof);

// The seal proof's proving key from its .params file. Throws formats::FormatError
// naming the file when it is not this seal proof's (IC count, query sizes, domain).
groth16::ProvingKey read_filecoin_porep_key(const std::filesystem::path& params, const filecoin::SealProof& proof,
                                            const formats::BellpersonReadOptions& options = {});

// The seal proof's proving key through zkpipe's native parameter file at `cache`:
// the cache is used when it holds this .params's verifying key and fits the circuit,
// else the .params is converted into it (formats::convert_bellperson_params: a chunk of
// points in host memory at a time) and the key is mapped from it. A 32 GiB sector's
// key is then never whole in host memory, and later loads skip the decoding (most of
// a load's time). A damaged cache is converted again; a file at `cache` that is a
// sound key of other parameters, or not a zkpipe parameter file, is left as it is.
// That, or a cache that cannot be written (a read-only directory, a full disk), is
// not an error: the .params is then decoded into host memory, as
// read_filecoin_porep_key does, and `not_cached` says why. The .params is checked
// against the seal proof before anything is converted. Throws formats::FormatError
// naming the .params.
struct CachedFilecoinKey {
  groth16::ProvingKey key;
  std::shared_ptr<const io::FileMapping> cache_mapping;  // the key's, when mapped from the cache
  bool converted = false;   // the cache was written from the .params now
  std::string passed_over;  // why a cache found at the path was not used
  std::string not_cached;   // why the cache could not be written
};
CachedFilecoinKey load_filecoin_porep_key(const std::shared_ptr<const io::FileMapping>& params,
                                          const filecoin::SealProof& proof, const std::filesystem::path& cache,
                                          const formats::BellpersonReadOptions& options = {},
                                          const formats::ConvertProgress& progress = {});
CachedFilecoinKey load_filecoin_porep_key(const std::filesystem::path& params, const filecoin::SealProof& proof,
                                          const std::filesystem::path& cache,
                                          const formats::BellpersonReadOptions& options = {},
                                          const formats::ConvertProgress& progress = {});
// Where a .params's key cache lies by default: beside it, its name with .zkp appended.
std::filesystem::path default_key_cache(const std::filesystem::path& params);

// The public inputs of every partition, as verify_seal derives them from the sector's
// values alone.
std::vector<std::vector<ff::Fr>> filecoin_porep_public_inputs(const filecoin::SectorValues& sector);

}  // namespace zkpipe::proving
