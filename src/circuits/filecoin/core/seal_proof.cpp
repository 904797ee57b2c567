#include "circuits/filecoin/core/seal_proof.hpp"

#include <stdexcept>
#include <string>

namespace zkpipe::filecoin::core {
namespace {

constexpr std::uint64_t k2KiB = std::uint64_t{1} << 11;
constexpr std::uint64_t k8MiB = std::uint64_t{1} << 23;
constexpr std::uint64_t k512MiB = std::uint64_t{1} << 29;
constexpr std::uint64_t k32GiB = std::uint64_t{1} << 35;
constexpr std::uint64_t k64GiB = std::uint64_t{1} << 36;

using enum ApiVersion;
using enum PorepChallenges;

// The enum is append-only on chain: ids never change.
constexpr std::array<SealProof, 20> kSealProofs = {{
    {"StackedDrg2KiBV1", 0, k2KiB, k1_0_0, kInteractive},
    {"StackedDrg8MiBV1", 1, k8MiB, k1_0_0, kInteractive},
    {"StackedDrg512MiBV1", 2, k512MiB, k1_0_0, kInteractive},
    {"StackedDrg32GiBV1", 3, k32GiB, k1_0_0, kInteractive},
    {"StackedDrg64GiBV1", 4, k64GiB, k1_0_0, kInteractive},
    {"StackedDrg2KiBV1_1", 5, k2KiB, k1_1_0, kInteractive},
    {"StackedDrg8MiBV1_1", 6, k8MiB, k1_1_0, kInteractive},
    {"StackedDrg512MiBV1_1", 7, k512MiB, k1_1_0, kInteractive},
    {"StackedDrg32GiBV1_1", 8, k32GiB, k1_1_0, kInteractive},
    {"StackedDrg64GiBV1_1", 9, k64GiB, k1_1_0, kInteractive},
    // Published with "V1_1" in the name although they are API version 1.2.0.
    {"StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 10, k2KiB, k1_2_0, kSynthetic},
    {"StackedDrg8MiBV1_1_Feat_SyntheticPoRep", 11, k8MiB, k1_2_0, kSynthetic},
    {"StackedDrg512MiBV1_1_Feat_SyntheticPoRep", 12, k512MiB, k1_2_0, kSynthetic},
    {"StackedDrg32GiBV1_1_Feat_SyntheticPoRep", 13, k32GiB, k1_2_0, kSynthetic},
    {"StackedDrg64GiBV1_1_Feat_SyntheticPoRep", 14, k64GiB, k1_2_0, kSynthetic},
    {"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 15, k2KiB, k1_2_0, kNonInteractive},
    {"StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", 16, k8MiB, k1_2_0, kNonInteractive},
    {"StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", 17, k512MiB, k1_2_0, kNonInteractive},
    {"StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", 18, k32GiB, k1_2_0, kNonInteractive},
    {"StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", 19, k64GiB, k1_2_0, kNonInteractive},
}};

}  // namespace

std::size_t SealProof::partitions() const {
  return challenges == kNonInteractive ? shape().non_interactive_partitions : shape().interactive_partitions;
}

std::size_t SealProof::challenges_per_partition() const {
  const SectorShape& s = shape();
  const std::size_t minimum =
      challenges == kNonInteractive ? s.non_interactive_min_challenges : s.interactive_min_challenges;
  return filecoin::core::challenges_per_partition(minimum, partitions());
}

PorepId SealProof::porep_id() const { return make_porep_id(registered_id); }

std::span<const SealProof> seal_proofs() { return kSealProofs; }

const SealProof& seal_proof(std::string_view name) {
  for (const SealProof& proof : kSealProofs) {
    if (proof.name == name) return proof;
  }
  throw std::invalid_argument("unknown registered seal proof \"" + std::string(name) +
                              "\" (expected a name such as StackedDrg32GiBV1_1; ids 0..19)");
}

const SealProof& seal_proof(std::uint64_t registered_id) {
  if (registered_id >= kSealProofs.size()) {
    throw std::invalid_argument("unknown registered seal proof id " + std::to_string(registered_id) +
                                " (expected 0..19)");
  }
  return kSealProofs[registered_id];
}

PorepId make_porep_id(std::uint64_t registered_id, std::uint64_t nonce) {
  PorepId id{};
  for (int i = 0; i < 8; ++i) {
    id[i] = static_cast<std::uint8_t>(registered_id >> (8 * i));
    id[8 + i] = static_cast<std::uint8_t>(nonce >> (8 * i));
  }
  return id;
}

std::string_view vanilla_variant(const SealProof& proof) {
  for (const SealProof& p : seal_proofs()) {
    if (p.sector_bytes == proof.sector_bytes) return p.name;
  }
  return proof.name;
}

}  // namespace zkpipe::filecoin::core
