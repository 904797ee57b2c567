// Parameter residency: proving keys (with their circuit's pre-compiled evaluator, or
// a .zkey's coefficient lists) loaded once and shared by every job that names them.
//
// - One byte budget: a resident key's bytes are reserved from the engine's memory
//   budget (Engine::make_resident), the same budget the partitions' working sets
//   are admitted under. A key that does not fit evicts idle keys, least recently
//   used first; if it still does not fit the job is refused.
// - Reference counts: a job holds a Lease for as long as it runs; a key with a lease
//   out is never evicted (EvictParams on it fails; idle eviction skips it).
// - Idle eviction: a key nobody has leased for idle_seconds is dropped.
// - Tiers: where the backend keeps the key's points. The host copy is always
//   resident here (the CPU backend reads it; the CUDA backend uploads from it);
//   a device backend reports "device" once its first proof has placed the points
//   there, and frees them when the key is evicted.
// - Shapes: a native key's counts (inputs, aux, domain, densities) are checked
//   against the circuit a job names before its evaluator is compiled, and
//   remembered, so that a later submit naming a preset the key was not set up for
//   is refused at once (check_shape).
// - Files: a key is loaded from a file the caller opened (and checked), and is used
//   only for jobs that name that same file. Before each use the file is looked at
//   again: a key whose file was replaced (another inode under the name) is dropped
//   and the job's file loaded instead; a key whose mapped file changed in place
//   (size, mtime) is dropped and the job refused with ParametersChanged, since the
//   points it views are no longer the ones that were checked. A truncation while a
//   job reads the key is answered by the fault handler (io/mapping_faults.hpp) and
//   reported by Lease::damage() when the job is done.
// - Filecoin .params (bellperson's format) are decoded into a key of their own (not
//   viewed in place), checked against the seal proof's circuit, and kept with the
//   evaluator of that circuit's shape, cached beside them as native keys' are.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "circuits/filecoin/core/seal_proof.hpp"
#include "engine/engine.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/zkey_file.hpp"
#include "groth16/footprint.hpp"
#include "groth16/keys.hpp"
#include "io/file_mapping.hpp"
#include "io/read_only_file.hpp"
#include "proving/circom_instance.hpp"
#include "r1cs/partitioned_circuit.hpp"
#include "service/residency/key_cache_budget.hpp"

namespace zkpipe::service::residency {

// The residency name of a .zkey's circuit (ResidentInfo::circuit).
inline constexpr const char* kCircomCircuit = "circom";

// What turns a circom witness into the prover's a, b, c for one .zkey.
using ZkeyCircuit = proving::ZkeyCircuit;

// The backend's view of where a key lives, and how to drop its device copy.
struct ParameterTiers {
  std::function<std::string(const groth16::ProvingKey&)> tier_of;  // "host" when empty
  std::function<void(const groth16::ProvingKey&)> release;         // nothing when empty
};

class ParametersInUse : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
class ParametersDoNotFit : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The file a resident key views in place changed after it was loaded.
class ParametersChanged : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// The key was set up for another circuit than the one a job names.
class ShapeMismatch : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct ResidentInfo {
  std::filesystem::path file;
  std::string circuit;
  std::string tier;
  std::size_t bytes = 0;
  std::size_t in_use = 0;
  double idle_seconds = 0;
};

class ParameterResidency {
 private:
  struct Entry;

 public:
  using Clock = std::chrono::steady_clock;

  // A job's hold on resident parameters; releasing it (destruction) makes them idle.
  class Lease {
   public:
    Lease() = default;
    Lease(Lease&&) noexcept = default;
    Lease& operator=(Lease&&) noexcept;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease() { release(); }

    const std::shared_ptr<const engine::ResidentParameters>& parameters() const { return parameters_; }
    // A .zkey's coefficient lists (acquire_zkey); null for a native key.
    const std::shared_ptr<const ZkeyCircuit>& zkey() const { return zkey_; }
    // Seconds this acquire spent loading (or waiting for another's load): 0 when resident.
    double load_seconds() const { return load_seconds_; }
    // Why what the job read from a mapped file cannot be trusted: the file was
    // truncated while it was read (io::FileMapping::damage); nullopt when it was not.
    std::optional<std::string> damage() const;
    void release();

   private:
    friend class ParameterResidency;
    ParameterResidency* owner_ = nullptr;
    std::shared_ptr<Entry> entry_;
    std::shared_ptr<const engine::ResidentParameters> parameters_;
    std::shared_ptr<const ZkeyCircuit> zkey_;
    double load_seconds_ = 0;
  };

  // A Filecoin .params is converted into a key cache (and its evaluator cached) in
  // key_cache.dir, created when needed: never beside the .params, whose directory is
  // often read-only (shared, fetched once); the oldest caches not in use make room
  // within key_cache.budget (make_key_cache_room).
  ParameterResidency(engine::Engine& engine, ParameterTiers tiers, double idle_seconds, KeyCacheOptions key_cache);
  ParameterResidency(const ParameterResidency&) = delete;
  ParameterResidency& operator=(const ParameterResidency&) = delete;

  // The key in `file` (opened where it was confined; its name is its canonical path)
  // for `circuit`'s shape, loaded if needed. Throws groth16::ParameterFileError and
  // friends for a bad file, ShapeMismatch for a key of another circuit (before
  // compiling the evaluator), ParametersDoNotFit when the budget cannot hold it,
  // ParametersChanged as the header says.
  Lease acquire(const std::shared_ptr<const io::ReadOnlyFile>& file, const r1cs::PartitionedCircuit& circuit);
  // A snarkjs .zkey (opened as above), read if needed. Throws formats::FormatError for
  // a bad file, ParametersDoNotFit as above.
  Lease acquire_zkey(const std::shared_ptr<const io::ReadOnlyFile>& file);
  // A Filecoin seal proof's .params (opened as above), read if needed; resident under
  // the name filecoin_circuit_name gives. Throws formats::FormatError for a bad file
  // or the parameters of another circuit, ParametersDoNotFit as above.
  Lease acquire_filecoin(const std::shared_ptr<const io::ReadOnlyFile>& file, const filecoin::core::SealProof& proof);
  // Any circuit's bellperson .params (Filecoin's PoSt and SnapDeals parameters), the same
  // way, resident under shape.name(); `shape` is any partition of the circuit.
  Lease acquire_bellperson(const std::shared_ptr<const io::ReadOnlyFile>& file, const r1cs::PartitionedCircuit& shape);
  // A PoSt or SnapDeals key, whichever the file is: zkpipe's parameter file (acquire) or
  // Filecoin's .params (acquire_bellperson).
  Lease acquire_key_or_params(const std::shared_ptr<const io::ReadOnlyFile>& file,
                              const r1cs::PartitionedCircuit& circuit);
  // Where Filecoin .params are converted, and within what budget.
  const KeyCacheOptions& key_cache() const { return key_cache_; }
  // Whether acquiring would find the parameters loaded (no load to wait for).
  bool loaded(const std::filesystem::path& file, const std::string& circuit) const;
  // Throws ShapeMismatch when a key loaded from `file` (unchanged since) had other
  // counts than the circuit; nothing when the key has not been read yet (the
  // circuit is then not built).
  void check_shape(const std::filesystem::path& file,
                   const std::function<std::shared_ptr<const r1cs::PartitionedCircuit>()>& circuit);
  // Drops an idle key; returns the bytes freed (0 if it was not resident). Throws
  // ParametersInUse when a job holds it.
  std::size_t evict(const std::filesystem::path& file);
  // Drops keys idle for longer than the idle time; returns how many.
  std::size_t evict_idle();
  // Drops every idle key (shutdown).
  void evict_all();
  std::vector<ResidentInfo> list() const;

 private:
  using Id = std::pair<std::string, std::string>;  // file, circuit name
  struct MappedSource {
    const char* what;  // "parameter file", "key cache", "evaluator file"
    std::shared_ptr<const io::FileMapping> mapping;
  };
  struct Resident {
    std::shared_ptr<const engine::ResidentParameters> parameters;
    std::shared_ptr<const ZkeyCircuit> zkey;
    io::FileIdentity source;  // the file loaded, as it was then
    // Whether the key views its file in place (a native parameter file), rather than
    // holding a copy of what it read.
    bool key_in_place = false;
    // The files the parameters view in place (the key's, its evaluator's); none for a
    // .zkey, which is copied, and for Filecoin .params the key cache converted from it
    // (none when it could not be written) and the evaluator's.
    std::vector<MappedSource> mappings;
  };
  // A key's counts as read from its file, valid while the file's mtime is unchanged.
  struct KeyShape {
    std::filesystem::file_time_type mtime;
    groth16::CircuitShape shape;
  };

  Lease acquire_with(const Id& id, const io::ReadOnlyFile& file, const std::function<Resident()>& load);
  // One round of acquire_with: the lease on the entry for `id` (loaded by this call if
  // needed), after dropping a stale entry; its load time counts from t0. Throws
  // ParametersChanged.
  Lease acquire_once(const Id& id, const io::ReadOnlyFile& file, const std::function<Resident()>& load,
                     Clock::time_point t0);
  // Under mutex_: takes the entry out of the map; dropped now if idle, else by its last lease.
  void detach_locked(const Id& id, std::vector<std::shared_ptr<Entry>>& dropped);
  Resident load(const std::shared_ptr<const io::ReadOnlyFile>& file, const r1cs::PartitionedCircuit& circuit);
  Resident load_zkey(const std::shared_ptr<const io::ReadOnlyFile>& file);
  // A bellperson .params, read for `circuit` (its name in errors) through the key cache
  // beside it; requirements_of counts what the file must hold.
  Resident load_bellperson(const std::shared_ptr<const io::ReadOnlyFile>& file, const std::string& circuit,
                           const std::function<formats::CircuitRequirements()>& requirements_of,
                           const r1cs::PartitionedCircuit& shape);
  // Reserves the loaded key's bytes from the budget, evicting idle keys as needed.
  std::shared_ptr<const engine::ResidentParameters> make_resident(const std::filesystem::path& file,
                                                                  std::shared_ptr<const groth16::ProvingKey> key,
                                                                  std::shared_ptr<const r1cs::CompiledR1cs> evaluator,
                                                                  std::size_t companion_bytes);
  // The files the loaded parameters view in place (key caches, evaluators, keys).
  std::set<std::filesystem::path> mapped_files() const;
  // Before a .params is converted into `cache`: room made within the key cache's budget.
  void make_room_for(const std::filesystem::path& params, const std::filesystem::path& cache) const;
  // The circuit's counts, computed once per circuit name.
  groth16::CircuitShape circuit_shape(const r1cs::PartitionedCircuit& circuit);
  // Under mutex_: removes the least recently used idle entry; false if none.
  bool evict_one_idle_locked(std::vector<std::shared_ptr<Entry>>& dropped);
  void drop(std::vector<std::shared_ptr<Entry>>& dropped);
  void returned(const std::shared_ptr<Entry>& entry);

  engine::Engine& engine_;
  const ParameterTiers tiers_;
  const double idle_seconds_;
  const KeyCacheOptions key_cache_;
  mutable std::mutex mutex_;
  std::map<Id, std::shared_ptr<Entry>> entries_;
  std::map<std::string, KeyShape> key_shapes_;                  // by file
  std::map<std::string, groth16::CircuitShape> circuit_shapes_;  // by circuit name
};

}  // namespace zkpipe::service::residency
