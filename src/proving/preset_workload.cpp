#include "proving/preset_workload.hpp"

#include <stdexcept>

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "circuits/filecoin/synthetic/synthetic_c1.hpp"
#include "circuits/filecoin/synthetic/synthetic_post.hpp"
#include "circuits/filecoin/synthetic/synthetic_update.hpp"
#include "circuits/porep_like/porep_circuit.hpp"
#include "circuits/porep_like/preset.hpp"

namespace zkpipe::proving {

namespace {

constexpr const char* kPorepLike = "porep-like";
constexpr const char* kFilecoinPorep = "filecoin-porep";
constexpr const char* kWindowPost = "filecoin-window-post";
constexpr const char* kWinningPost = "filecoin-winning-post";
constexpr const char* kSnapDeals = "filecoin-snapdeals";
constexpr const char* kSnapDealsPoseidon = "filecoin-snapdeals-poseidon";

struct SectorPreset {
  const char* name;
  const char* seal_proof;
};

constexpr SectorPreset kSectorPresets[] = {
    {"2KiB", "StackedDrg2KiBV1_1"},     {"8MiB", "StackedDrg8MiBV1_1"}, {"512MiB", "StackedDrg512MiBV1_1"},
    {"32GiB", "StackedDrg32GiBV1_1"}, {"64GiB", "StackedDrg64GiBV1_1"},
};

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const filecoin::core::SealProof& sector_seal_proof(const std::string& preset) {
  for (const auto& p : kSectorPresets) {
    if (preset == p.name) return filecoin::core::seal_proof(p.seal_proof);
  }
  throw std::invalid_argument("unknown sector size '" + preset + "' for filecoin-porep (known: " +
                              joined(preset_names(kFilecoinPorep)) + ")");
}

const filecoin::core::SealProof& checked_seal_proof(const PresetWorkload& workload) {
  const filecoin::core::SealProof& proof = sector_seal_proof(workload.preset);
  if (workload.partitions > proof.partitions()) {
    throw std::invalid_argument(std::string(proof.name) + " has " + std::to_string(proof.partitions()) +
                                " partitions; " + std::to_string(workload.partitions) + " were asked for");
  }
  return proof;
}

std::unique_ptr<r1cs::PartitionedCircuit> filecoin_porep_circuit(const PresetWorkload& workload,
                                                                 const filecoin::synthetic::SyntheticSeal& seal) {
  const filecoin::porep::StackedCircuit all = filecoin::api::stacked_circuit_from_c1(
      seal.c1, seal.values, "synthetic C1 (seed " + std::to_string(workload.seed) + ")");
  std::vector<filecoin::porep::StackedPartition> first(
      all.assignments().begin(), all.assignments().begin() + static_cast<std::ptrdiff_t>(workload.partitions));
  return std::make_unique<filecoin::porep::StackedCircuit>(all.graph(), all.tree_shape(), std::move(first));
}

bool is_post(const std::string& circuit) { return circuit == kWindowPost || circuit == kWinningPost; }
bool is_update(const std::string& circuit) { return circuit == kSnapDeals || circuit == kSnapDealsPoseidon; }

filecoin::post::PostProof post_of(const PresetWorkload& workload) {
  const filecoin::core::SealProof& seal = sector_seal_proof(workload.preset);
  return filecoin::post::post_proof(
      workload.circuit == kWindowPost ? filecoin::post::PostKind::kWindow : filecoin::post::PostKind::kWinning,
      seal.sector_bytes);
}

void check_circuit(const std::string& circuit) {
  if (circuit != kPorepLike && circuit != kFilecoinPorep && !is_post(circuit) && !is_update(circuit)) {
    throw std::invalid_argument("unknown circuit '" + circuit + "' (known: " + joined(circuit_names()) + ")");
  }
}

filecoin::update::UpdateShape update_shape_of(const PresetWorkload& workload) {
  const std::uint64_t bytes = sector_seal_proof(workload.preset).sector_bytes;
  return filecoin::update::update_shape(
      bytes / 32, filecoin::core::sector_tree_shape(bytes),
      workload.circuit == kSnapDeals ? filecoin::update::UpdateHash::kSha256 : filecoin::update::UpdateHash::kPoseidon);
}

std::string update_name(const PresetWorkload& workload) { return workload.circuit + "/" + workload.preset; }

std::unique_ptr<r1cs::PartitionedCircuit> update_shape_circuit(const PresetWorkload& workload) {
  const filecoin::update::UpdateShape shape = update_shape_of(workload);
  return std::make_unique<filecoin::update::EmptySectorUpdateCircuit>(
      update_name(workload), shape,
      std::vector<filecoin::update::UpdatePartition>{filecoin::update::blank_update_partition(shape)});
}

}  // namespace

std::vector<std::string> circuit_names() {
  return {kPorepLike, kFilecoinPorep, kWindowPost, kWinningPost, kSnapDeals, kSnapDealsPoseidon};
}

std::vector<std::string> preset_names(const std::string& circuit) {
  if (circuit == kPorepLike) return porep_like::preset_names();
  if (circuit == kFilecoinPorep || is_post(circuit) || is_update(circuit)) {
    std::vector<std::string> names;
    for (const auto& p : kSectorPresets) names.emplace_back(p.name);
    return names;
  }
  throw std::invalid_argument("unknown circuit '" + circuit + "' (known: " + joined(circuit_names()) + ")");
}

WorkloadInput make_input(const PresetWorkload& workload) {
  check_circuit(workload.circuit);
  WorkloadInput input{workload, nullptr, nullptr};
  if (workload.circuit == kFilecoinPorep) {
    input.seal = std::make_shared<const filecoin::synthetic::SyntheticSeal>(
        filecoin::synthetic::synthetic_c1(checked_seal_proof(workload), workload.seed));
  }
  if (is_post(workload.circuit)) {
    input.circuit = std::make_shared<const filecoin::post::FallbackPostCircuit>(
        filecoin::synthetic::synthetic_post(post_of(workload), workload.seed, workload.partitions));
  }
  if (is_update(workload.circuit)) {
    const filecoin::update::UpdateShape shape = update_shape_of(workload);
    if (workload.partitions > shape.partitions) {
      throw std::invalid_argument(update_name(workload) + " has " + std::to_string(shape.partitions) +
                                  " partitions; " + std::to_string(workload.partitions) + " were asked for");
    }
    // Held whole up to 8 MiB; larger sectors get an empty (zero-data) update of a sparse replica.
    filecoin::synthetic::SyntheticUpdate update =
        shape.nodes <= (std::uint64_t{1} << 20) ? filecoin::synthetic::synthetic_update(shape, workload.seed)
                                                : filecoin::synthetic::synthetic_empty_update(shape, workload.seed);
    update.partitions.resize(workload.partitions);
    input.circuit = std::make_shared<const filecoin::update::EmptySectorUpdateCircuit>(update_name(workload), shape,
                                                                                       std::move(update.partitions));
  }
  return input;
}

std::shared_ptr<const r1cs::PartitionedCircuit> make_circuit(const WorkloadInput& input) {
  const PresetWorkload& workload = input.workload;
  check_circuit(workload.circuit);
  if (input.circuit) return input.circuit;
  if (workload.circuit == kFilecoinPorep) {
    if (!input.seal) throw std::invalid_argument("make_circuit: a filecoin-porep input without its C1 output");
    checked_seal_proof(workload);
    return filecoin_porep_circuit(workload, *input.seal);
  }
  if (workload.circuit != kPorepLike) {
    throw std::invalid_argument("make_circuit: a " + workload.circuit + " input without its circuit");
  }
  return std::make_shared<const porep_like::PorepLikeCircuit>(porep_like::find_preset(workload.preset),
                                                               workload.seed, workload.partitions);
}

std::shared_ptr<const r1cs::PartitionedCircuit> make_circuit(const PresetWorkload& workload) {
  return make_circuit(make_input(workload));
}

std::shared_ptr<const r1cs::PartitionedCircuit> make_shape_circuit(const PresetWorkload& workload) {
  check_circuit(workload.circuit);
  if (is_update(workload.circuit)) return update_shape_circuit(workload);
  if (is_post(workload.circuit)) {
    const filecoin::post::PostProof proof = post_of(workload);
    return std::make_shared<const filecoin::post::FallbackPostCircuit>(filecoin::post::fallback_post_shape(
        proof.name(), proof.leaves(), proof.tree_shape(), proof.sector_count, proof.challenge_count));
  }
  if (workload.circuit == kFilecoinPorep) {
    return std::make_shared<const filecoin::porep::StackedCircuit>(
        filecoin::api::stacked_circuit_shape(checked_seal_proof(workload)));
  }
  return make_circuit(workload);
}

}  // namespace zkpipe::proving
