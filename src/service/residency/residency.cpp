#include "service/residency/residency.hpp"

#include <algorithm>
#include <iostream>

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "formats/zkey_file.hpp"
#include "io/file_error.hpp"
#include "groth16/parameter_file.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/format_error.hpp"
#include "groth16/synthesis.hpp"
#include "proving/bellperson_key.hpp"
#include "proving/evaluator_cache.hpp"
#include "proving/filecoin_porep.hpp"

namespace zkpipe::service::residency {

struct ParameterResidency::Entry {
  std::shared_future<Resident> ready;
  bool loaded = false;                 // ready holds a value
  std::size_t in_use = 0;              // leases out
  bool detached = false;               // out of entries_: dropped by its last lease
  Clock::time_point last_used = Clock::now();
};

namespace {

double seconds_since(ParameterResidency::Clock::time_point t) {
  return std::chrono::duration<double>(ParameterResidency::Clock::now() - t).count();
}

// "…changed since it was loaded (size A → B)" when a mapped file changed or was
// truncated under a reader; nullopt while none did.
std::optional<std::string> changed_since_loaded(const std::string& what, const io::FileMapping& mapping) {
  std::string change;
  try {
    change = mapping.change().value_or("");
  } catch (const io::FileError& e) {
    change = e.reason();
  }
  if (change.empty() && mapping.damage()) change = "truncated, then restored to its size";
  if (change.empty()) return std::nullopt;
  return what + " " + mapping.name() + " changed since it was loaded (" + change + ")";
}

}  // namespace

ParameterResidency::Lease& ParameterResidency::Lease::operator=(Lease&& other) noexcept {
  if (this != &other) {
    release();
    owner_ = std::exchange(other.owner_, nullptr);
    entry_ = std::move(other.entry_);
    parameters_ = std::move(other.parameters_);
    zkey_ = std::move(other.zkey_);
    load_seconds_ = other.load_seconds_;
  }
  return *this;
}

void ParameterResidency::Lease::release() {
  parameters_.reset();
  zkey_.reset();
  if (owner_ != nullptr && entry_ != nullptr) owner_->returned(entry_);
  owner_ = nullptr;
  entry_.reset();
}

std::optional<std::string> ParameterResidency::Lease::damage() const {
  if (entry_ == nullptr || !parameters_) return std::nullopt;
  for (const MappedSource& source : entry_->ready.get().mappings) {
    const auto at = source.mapping->damage();
    if (!at) continue;
    std::string now;
    try {
      now = source.mapping->change().value_or("");
    } catch (const io::FileError& e) {
      now = e.reason();
    }
    return std::string(source.what) + " " + source.mapping->name() +
           " was truncated while this job read it (no data from offset " + std::to_string(*at) +
           (now.empty() ? "" : "; " + now) + "): its proof is not returned";
  }
  return std::nullopt;
}

ParameterResidency::ParameterResidency(engine::Engine& engine, ParameterTiers tiers, double idle_seconds,
                                       KeyCacheOptions key_cache)
    : engine_(engine), tiers_(std::move(tiers)), idle_seconds_(idle_seconds), key_cache_(std::move(key_cache)) {}

std::set<std::filesystem::path> ParameterResidency::mapped_files() const {
  std::set<std::filesystem::path> files;
  std::lock_guard lock(mutex_);
  for (const auto& [id, entry] : entries_) {
    if (!entry->loaded) continue;
    for (const MappedSource& source : entry->ready.get().mappings) files.insert(source.mapping->name());
  }
  return files;
}

void ParameterResidency::make_room_for(const std::filesystem::path& params, const std::filesystem::path& cache) const {
  std::error_code error;
  if (key_cache_.budget == 0 || std::filesystem::exists(cache, error)) return;
  // The key cache, and its evaluator about a fifth of the .params' bytes more.
  const std::uintmax_t params_bytes = std::filesystem::file_size(params, error);
  if (error) return;
  const KeyCacheRoom room = make_key_cache_room(
      key_cache_.dir, key_cache_.budget, proving::key_cache_bytes_estimate(params_bytes) + params_bytes / 5,
      mapped_files());
  for (const std::filesystem::path& removed : room.removed) {
    std::cerr << "zkpipe serve: key cache: removed " << removed.string() << ", the oldest, to make room for "
              << cache.filename().string() << " within key_cache_budget\n";
  }
  if (!room.fits) {
    std::cerr << "zkpipe serve: key cache: " << cache.filename().string() << " does not fit within key_cache_budget ("
              << room.bytes_after << " bytes held by caches in use); converting it anyway\n";
  }
}

void ParameterResidency::returned(const std::shared_ptr<Entry>& entry) {
  std::vector<std::shared_ptr<Entry>> dropped;
  {
    std::lock_guard lock(mutex_);
    --entry->in_use;
    entry->last_used = Clock::now();
    if (entry->detached && entry->in_use == 0 && entry->loaded) dropped.push_back(entry);
  }
  drop(dropped);
}

ParameterResidency::Lease ParameterResidency::acquire(const std::shared_ptr<const io::ReadOnlyFile>& file,
                                                      const r1cs::PartitionedCircuit& circuit) {
  return acquire_with({file->name(), circuit.name()}, *file, [&] { return load(file, circuit); });
}

ParameterResidency::Lease ParameterResidency::acquire_zkey(const std::shared_ptr<const io::ReadOnlyFile>& file) {
  return acquire_with({file->name(), kCircomCircuit}, *file, [&] { return load_zkey(file); });
}

ParameterResidency::Lease ParameterResidency::acquire_filecoin(const std::shared_ptr<const io::ReadOnlyFile>& file,
                                                               const filecoin::core::SealProof& proof) {
  // Every value zero: the evaluator is compiled from the shape alone.
  const filecoin::porep::StackedCircuit shape = filecoin::api::stacked_circuit_shape(proof);
  return acquire_with({file->name(), shape.name()}, *file, [&] {
    return load_bellperson(file, std::string(proof.name), [&] { return proving::filecoin_porep_requirements(proof); },
                           shape);
  });
}

ParameterResidency::Lease ParameterResidency::acquire_bellperson(const std::shared_ptr<const io::ReadOnlyFile>& file,
                                                                 const r1cs::PartitionedCircuit& shape) {
  return acquire_with({file->name(), shape.name()}, *file, [&] {
    return load_bellperson(file, shape.name(), [&] { return proving::bellperson_requirements(shape); }, shape);
  });
}

ParameterResidency::Lease ParameterResidency::acquire_key_or_params(const std::shared_ptr<const io::ReadOnlyFile>& file,
                                                                    const r1cs::PartitionedCircuit& circuit) {
  return groth16::is_parameter_file(file->name()) ? acquire(file, circuit) : acquire_bellperson(file, circuit);
}

void ParameterResidency::detach_locked(const Id& id, std::vector<std::shared_ptr<Entry>>& dropped) {
  const auto it = entries_.find(id);
  if (it == entries_.end()) return;
  it->second->detached = true;
  if (it->second->in_use == 0 && it->second->loaded) dropped.push_back(it->second);
  entries_.erase(it);
}

bool ParameterResidency::loaded(const std::filesystem::path& file, const std::string& circuit) const {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find({file.string(), circuit});
  return it != entries_.end() && it->second->loaded;
}

namespace {

// Whether parameters loaded from `source` are the ones in `file`: the same inode for
// a key used in place (mapped; its changes in place are changed_since_loaded's), the
// same version too for a copy.
bool loaded_from(const io::FileIdentity& source, bool in_place, const io::ReadOnlyFile& file) {
  return in_place ? source.same_file(file.identity()) : source == file.identity();
}

}  // namespace

ParameterResidency::Lease ParameterResidency::acquire_with(const Id& id, const io::ReadOnlyFile& file,
                                                           const std::function<Resident()>& load) {
  const auto t0 = Clock::now();
  for (;;) {
    Lease lease = acquire_once(id, file, load, t0);
    const Resident& resident = lease.entry_->ready.get();
    // A load that another job started from a file since replaced: its entry is
    // stale now, and the next round loads this job's file.
    if (!loaded_from(resident.source, resident.key_in_place, file)) continue;
    lease.parameters_ = resident.parameters;
    lease.zkey_ = resident.zkey;
    return lease;
  }
}

ParameterResidency::Lease ParameterResidency::acquire_once(const Id& id, const io::ReadOnlyFile& file,
                                                           const std::function<Resident()>& load,
                                                           Clock::time_point t0) {
  Lease lease;
  lease.owner_ = this;
  std::promise<Resident> promise;
  bool loader = false;
  bool was_loaded = false;
  std::vector<std::shared_ptr<Entry>> dropped;
  std::optional<std::string> changed;
  {
    std::lock_guard lock(mutex_);
    if (const auto it = entries_.find(id); it != entries_.end() && it->second->loaded) {
      const Resident& resident = it->second->ready.get();
      // Another file under the name: the stale entry goes, whatever became of its
      // file. The same file changed in place: the entry goes and the job fails.
      if (loaded_from(resident.source, resident.key_in_place, file)) {
        for (const MappedSource& source : resident.mappings) {
          if (!changed) changed = changed_since_loaded(source.what, *source.mapping);
        }
        if (changed) detach_locked(id, dropped);
      } else {
        detach_locked(id, dropped);
      }
    }
  }
  drop(dropped);
  if (changed) throw ParametersChanged(*changed);
  {
    std::lock_guard lock(mutex_);
    auto& slot = entries_[id];
    if (slot == nullptr) {
      slot = std::make_shared<Entry>();
      slot->ready = promise.get_future().share();
      loader = true;
    }
    ++slot->in_use;
    was_loaded = slot->loaded;
    lease.entry_ = slot;
  }
  if (loader) {
    try {
      promise.set_value(load());
      std::lock_guard lock(mutex_);
      lease.entry_->loaded = true;
    } catch (...) {
      promise.set_exception(std::current_exception());
      std::lock_guard lock(mutex_);
      // The next acquire tries again (the file may have been fixed).
      if (auto it = entries_.find(id); it != entries_.end() && it->second == lease.entry_) entries_.erase(it);
    }
  }
  lease.entry_->ready.get();  // rethrows a failed load (the lease then returns itself)
  lease.load_seconds_ = was_loaded ? 0.0 : seconds_since(t0);
  return lease;
}

groth16::CircuitShape ParameterResidency::circuit_shape(const r1cs::PartitionedCircuit& circuit) {
  {
    std::lock_guard lock(mutex_);
    if (const auto it = circuit_shapes_.find(circuit.name()); it != circuit_shapes_.end()) return it->second;
  }
  // Counting synthesizes one partition without values: far cheaper than compiling.
  const groth16::CircuitShape shape = groth16::count_shape(circuit);
  std::lock_guard lock(mutex_);
  circuit_shapes_.emplace(circuit.name(), shape);
  return shape;
}

namespace {

void refuse_other_shape(const std::filesystem::path& file, const groth16::CircuitShape& key,
                        const r1cs::PartitionedCircuit& circuit, const groth16::CircuitShape& counted) {
  if (const auto why = groth16::key_shape_mismatch(counted, key)) {
    throw ShapeMismatch(file.string() + " was set up for another circuit than " + circuit.name() + " (" + *why + ")");
  }
}

std::filesystem::file_time_type mtime_of(const std::filesystem::path& file) {
  std::error_code ec;
  const auto t = std::filesystem::last_write_time(file, ec);
  return ec ? std::filesystem::file_time_type::min() : t;
}

}  // namespace

void ParameterResidency::check_shape(const std::filesystem::path& file,
                                     const std::function<std::shared_ptr<const r1cs::PartitionedCircuit>()>& circuit) {
  groth16::CircuitShape key;
  {
    std::lock_guard lock(mutex_);
    const auto it = key_shapes_.find(file.string());
    if (it == key_shapes_.end() || it->second.mtime != mtime_of(file)) return;
    key = it->second.shape;
  }
  const auto built = circuit();
  refuse_other_shape(file, key, *built, circuit_shape(*built));
}

ParameterResidency::Resident ParameterResidency::load(const std::shared_ptr<const io::ReadOnlyFile>& opened,
                                                      const r1cs::PartitionedCircuit& circuit) {
  const std::filesystem::path file = opened->name();
  const auto mtime = mtime_of(file);
  std::shared_ptr<const io::FileMapping> mapping;
  try {
    mapping = io::FileMapping::map(opened);
  } catch (const io::FileError& e) {
    throw groth16::ParameterFileError(e.what());
  }
  auto key = std::make_shared<const groth16::ProvingKey>(groth16::load_parameter_file(mapping));
  const groth16::CircuitShape key_shape = groth16::CircuitShape::of(*key);
  {
    std::lock_guard lock(mutex_);
    key_shapes_.insert_or_assign(file.string(), KeyShape{mtime, key_shape});
  }
  refuse_other_shape(file, key_shape, circuit, circuit_shape(circuit));
  // The evaluator cached beside the key (as `zkpipe prove` caches it), else compiled
  // now and cached there when the directory is writable.
  proving::CachedEvaluator evaluator = proving::load_or_compile_evaluator(file, *key, circuit);
  std::vector<MappedSource> mappings{{"parameter file", mapping}};
  if (evaluator.mapping) mappings.push_back({"evaluator file", evaluator.mapping});
  return {make_resident(file, std::move(key), std::move(evaluator.evaluator), 0), nullptr, mapping->identity(), true,
          std::move(mappings)};
}

ParameterResidency::Resident ParameterResidency::load_bellperson(
    const std::shared_ptr<const io::ReadOnlyFile>& opened, const std::string& circuit,
    const std::function<formats::CircuitRequirements()>& requirements_of, const r1cs::PartitionedCircuit& shape) {
  const std::filesystem::path file = opened->name();
  std::shared_ptr<const io::FileMapping> mapping;
  try {
    mapping = io::FileMapping::map(opened);
  } catch (const io::FileError& e) {
    throw formats::FormatError(file.string(), e.reason());
  }
  const std::string name = file.string() + " (as " + circuit + "'s parameters)";
  const formats::CircuitRequirements requirements = requirements_of();
  // Another circuit's file is refused from its counts, before its points are decoded.
  formats::check_params_fit(formats::read_bellperson_params_counts(mapping), requirements, name);
  // As for a .zkey: a point outside the subgroup can only spoil this daemon's own
  // proofs, which are verified before they are returned; checking ~470 million
  // points is what would make a 32 GiB sector's load slow. The key is mapped from
  // the cache converted into the daemon's key cache directory (where the evaluator
  // is cached too), so the host never holds it whole; only when that cannot be
  // written is it decoded into memory.
  // A cache already beside the .params (converted there by `zkpipe filecoin c2`, or
  // by an earlier daemon) is used where it is; new ones go to the key cache directory.
  std::error_code error;
  const std::filesystem::path beside = proving::default_key_cache(file);
  std::filesystem::path cache = key_cache_.dir / beside.filename();
  if (std::filesystem::is_regular_file(beside, error) && !std::filesystem::exists(cache, error)) {
    cache = beside;
  } else {
    std::filesystem::create_directories(key_cache_.dir, error);
    make_room_for(file, cache);
  }
  proving::CachedBellpersonKey cached =
      proving::load_bellperson_key(mapping, name, requirements, cache, {.check_subgroup = false});
  auto key = std::make_shared<const groth16::ProvingKey>(std::move(cached.key));
  // The .params is not read again: the mapping goes, the identity read stays the check.
  const io::FileIdentity source = mapping->identity();
  mapping.reset();
  proving::CachedEvaluator evaluator = proving::load_or_compile_evaluator(cache, *key, shape);
  std::vector<MappedSource> mappings;
  if (cached.cache_mapping) mappings.push_back({"key cache", cached.cache_mapping});
  if (evaluator.mapping) mappings.push_back({"evaluator file", evaluator.mapping});
  return {make_resident(file, std::move(key), std::move(evaluator.evaluator), 0), nullptr, source, false,
          std::move(mappings)};
}

ParameterResidency::Resident ParameterResidency::load_zkey(const std::shared_ptr<const io::ReadOnlyFile>& opened) {
  const std::filesystem::path file = opened->name();
  // The subgroup check is what makes reading a large key slow; a bad point can only
  // spoil this daemon's own proofs, which are verified before they are returned.
  formats::Zkey zkey = formats::read_zkey(opened, {.check_subgroup = false});
  auto key = std::make_shared<const groth16::ProvingKey>(std::move(zkey.key));
  auto circuit = std::make_shared<const ZkeyCircuit>(
      ZkeyCircuit{zkey.header, std::move(zkey.a_coefficients), std::move(zkey.b_coefficients)});
  return {make_resident(file, std::move(key), nullptr, circuit->bytes()), circuit, opened->identity(), false, {}};
}

std::shared_ptr<const engine::ResidentParameters> ParameterResidency::make_resident(
    const std::filesystem::path& file, std::shared_ptr<const groth16::ProvingKey> key,
    std::shared_ptr<const r1cs::CompiledR1cs> evaluator, std::size_t companion_bytes) {
  for (;;) {
    try {
      return engine_.make_resident(key, evaluator, companion_bytes);
    } catch (const std::runtime_error& e) {
      // Over budget: make room by dropping the least recently used idle key.
      std::vector<std::shared_ptr<Entry>> dropped;
      {
        std::lock_guard lock(mutex_);
        if (!evict_one_idle_locked(dropped)) {
          throw ParametersDoNotFit(file.string() + " does not fit in the memory budget beside the parameters in use (" +
                                   e.what() + ")");
        }
      }
      drop(dropped);
    }
  }
}

bool ParameterResidency::evict_one_idle_locked(std::vector<std::shared_ptr<Entry>>& dropped) {
  auto victim = entries_.end();
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->second->in_use != 0 || !it->second->loaded) continue;
    if (victim == entries_.end() || it->second->last_used < victim->second->last_used) victim = it;
  }
  if (victim == entries_.end()) return false;
  dropped.push_back(victim->second);
  entries_.erase(victim);
  return true;
}

// Outside the lock: the device copy is released (which may wait for a start() in
// progress), then the host copy and its reservation go with the last reference.
void ParameterResidency::drop(std::vector<std::shared_ptr<Entry>>& dropped) {
  for (auto& entry : dropped) {
    if (tiers_.release) tiers_.release(entry->ready.get().parameters->key());
  }
  dropped.clear();
}

std::size_t ParameterResidency::evict(const std::filesystem::path& file) {
  std::vector<std::shared_ptr<Entry>> dropped;
  std::size_t bytes = 0;
  {
    std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->first.first != file.string()) {
        ++it;
        continue;
      }
      if (it->second->in_use != 0 || !it->second->loaded) {
        throw ParametersInUse(file.string() + " is in use by " + std::to_string(it->second->in_use) +
                              " job(s); cancel them or evict it later");
      }
      bytes += it->second->ready.get().parameters->reserved_bytes();
      dropped.push_back(it->second);
      it = entries_.erase(it);
    }
  }
  drop(dropped);
  return bytes;
}

std::size_t ParameterResidency::evict_idle() {
  if (idle_seconds_ <= 0) return 0;
  std::vector<std::shared_ptr<Entry>> dropped;
  {
    std::lock_guard lock(mutex_);
    for (auto it = entries_.begin(); it != entries_.end();) {
      if (it->second->in_use == 0 && it->second->loaded && seconds_since(it->second->last_used) > idle_seconds_) {
        dropped.push_back(it->second);
        it = entries_.erase(it);
      } else {
        ++it;
      }
    }
  }
  const std::size_t n = dropped.size();
  drop(dropped);
  return n;
}

void ParameterResidency::evict_all() {
  std::vector<std::shared_ptr<Entry>> dropped;
  {
    std::lock_guard lock(mutex_);
    while (evict_one_idle_locked(dropped)) {
    }
  }
  drop(dropped);
}

std::vector<ResidentInfo> ParameterResidency::list() const {
  std::vector<ResidentInfo> out;
  std::lock_guard lock(mutex_);
  for (const auto& [id, entry] : entries_) {
    if (!entry->loaded) continue;
    const auto& parameters = entry->ready.get().parameters;
    ResidentInfo info;
    info.file = id.first;
    info.circuit = id.second;
    info.tier = tiers_.tier_of ? tiers_.tier_of(parameters->key()) : "host";
    info.bytes = parameters->reserved_bytes();
    info.in_use = entry->in_use;
    info.idle_seconds = entry->in_use == 0 ? seconds_since(entry->last_used) : 0.0;
    out.push_back(std::move(info));
  }
  return out;
}

}  // namespace zkpipe::service::residency
