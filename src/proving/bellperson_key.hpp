// Bellperson's .params (Filecoin's published parameters) for any circuit, through
// zkpipe's native parameter file as a cache: the .params is checked against the
// circuit's shape from its counts, converted once a chunk of points at a time
// (formats::convert_bellperson_params), and mapped from the cache afterwards, so a
// 32 GiB sector's key (~47 GiB) is never whole in host memory and later loads skip the
// decoding.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "formats/bellperson_params.hpp"
#include "groth16/keys.hpp"
#include "io/file_mapping.hpp"
#include "r1cs/partitioned_circuit.hpp"

namespace zkpipe::proving {

// What a .params must hold for `shape` (any partition of the circuit: its structure),
// counted, not recorded: a 32 GiB partition's matrices would take tens of GiB, its
// densities take one bit per variable.
formats::CircuitRequirements bellperson_requirements(const r1cs::PartitionedCircuit& shape);

// The proving key through the cache at `cache`: used when it holds this .params's
// verifying key, fits the circuit and, when options check the subgroup, records its
// points as checked (a cache converted with --no-subgroup-check is converted again,
// with the check), else the .params is converted into it and the key
// mapped from it. A damaged cache is converted again; a file at `cache` that is a sound
// key of other parameters, or not a zkpipe parameter file, is left as it is. That, or a
// cache that cannot be written (a read-only directory, a full disk), is not an error:
// the .params is then decoded into host memory and `not_cached` says why. The .params is
// checked against `requirements` before anything is converted. Throws
// formats::FormatError naming `label` (the file and the circuit it is read for).
struct CachedBellpersonKey {
  groth16::ProvingKey key;
  std::shared_ptr<const io::FileMapping> cache_mapping;  // the key's, when mapped from the cache
  bool converted = false;   // the cache was written from the .params now
  std::string passed_over;  // why a cache found at the path was not used
  std::string not_cached;   // why the cache could not be written
};
CachedBellpersonKey load_bellperson_key(const std::shared_ptr<const io::FileMapping>& params, const std::string& label,
                                        const formats::CircuitRequirements& requirements,
                                        const std::filesystem::path& cache,
                                        const formats::BellpersonReadOptions& options = {},
                                        const formats::ConvertProgress& progress = {});

// About the bytes a key cache converted from a .params of `params_bytes` takes: its
// points are 104 / 200 bytes where bellperson's are 96 / 192, plus a page a section.
std::uintmax_t key_cache_bytes_estimate(std::uintmax_t params_bytes);

// Where a .params's key cache lies by default: beside it, its name with .zkp appended.
std::filesystem::path default_key_cache(const std::filesystem::path& params);

}  // namespace zkpipe::proving
