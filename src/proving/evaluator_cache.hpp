// The pre-compiled evaluator of a circuit shape, cached beside the proving key it was
// compiled for: `zkpipe prove`, `zkpipe bench` and the daemon's parameter residency
// all get it here, so that they read and write the same file the same way.
//
// The cache is "<key path without its extension>.zkpev" (groth16/evaluator_file.hpp),
// opened in the key's directory without following a link, so that it lies where the
// key does (under the daemon's parameter root). A file built for this circuit and
// this key is mapped and used in place; one that is stale (another circuit, another
// key), damaged, or not a plain file is passed over, with the reason, and the
// evaluator compiled again and written over it atomically. A directory that cannot
// be written leaves the compiled evaluator serving from memory.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "groth16/keys.hpp"
#include "io/file_mapping.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/partitioned_circuit.hpp"

namespace zkpipe::proving {

// "<key path without its extension>.zkpev"
std::filesystem::path evaluator_path(const std::filesystem::path& key_path);

struct CachedEvaluator {
  std::shared_ptr<const r1cs::CompiledR1cs> evaluator;
  // The cache file the evaluator views in place; null when it was compiled by this
  // call (it then lives in memory, whether or not the cache could be written).
  std::shared_ptr<const io::FileMapping> mapping;
  std::filesystem::path path;
  // Why an existing cache file was not used (names the file and what is wrong);
  // empty when it was used or when there was none.
  std::string passed_over;
  // Why the compiled evaluator could not be written to the cache; empty otherwise.
  std::string not_cached;
  double seconds = 0;  // loading, or compiling (without the write)

  bool loaded() const { return mapping != nullptr; }
};

// Called while compiling with the constraints compiled so far.
using CompileProgress = std::function<void(std::size_t constraints)>;

// The evaluator of `circuit`'s shape for `key`, which was read from `key_path`:
// loaded from the cache when it matches (circuit name and key fingerprint), else
// compiled and cached. Throws what compiling throws, and std::invalid_argument
// naming the key and the first difference when the key is not for this circuit
// (nothing is cached then).
CachedEvaluator load_or_compile_evaluator(const std::filesystem::path& key_path, const groth16::ProvingKey& key,
                                          const r1cs::PartitionedCircuit& circuit,
                                          const CompileProgress& progress = {});

}  // namespace zkpipe::proving
