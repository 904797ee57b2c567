// The stacked DRG of Filecoin's SDR: in every layer, node v's label hashes
//  - 6 base parents in the same layer, from the bucket-sampling depth-robust graph
//    (immediate predecessor v−1 always among them; nodes 0 and 1 have only node 0), and
//  - from layer 2 on, 8 expander parents in the previous layer, from a Feistel
//    permutation of [0, 8·nodes) (Chung's construction): parent i of v is
//    permute(8v + i) / 8.
// Both are seeded by the porep_id: SHA-256("Filecoin_DRSample" ‖ porep_id)[..28] (‖ v as
// u32 little-endian) keys the ChaCha8 draws of node v's base parents, and
// SHA-256("Filecoin_Feistel" ‖ porep_id) read as four u64 little-endian gives the
// Feistel keys.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "circuits/filecoin/core/seal_proof.hpp"
#include "circuits/filecoin/porep/feistel.hpp"

namespace zkpipe::filecoin::porep {

inline constexpr std::size_t kBaseDegree = 6;
inline constexpr std::size_t kExpansionDegree = 8;
inline constexpr std::size_t kDegree = kBaseDegree + kExpansionDegree;

using BaseParents = std::array<std::uint32_t, kBaseDegree>;
using ExpanderParents = std::array<std::uint32_t, kExpansionDegree>;
// Base then expander parents: one row of rust-fil-proofs' parent cache.
using SdrParents = std::array<std::uint32_t, kDegree>;
using DrgSeed = std::array<std::uint8_t, 28>;

// SHA-256(tag ‖ porep_id): the per-porep_id seed of one graph component.
std::array<std::uint8_t, 32> porep_domain_seed(std::string_view tag, const core::PorepId& porep_id);
DrgSeed derive_drg_seed(const core::PorepId& porep_id);
FeistelKeys derive_feistel_keys(const core::PorepId& porep_id);

class SdrGraph {
 public:
  // Throws std::invalid_argument for nodes outside 1..2^32−1 (parents are u32).
  SdrGraph(std::uint64_t nodes, const core::PorepId& porep_id, core::ApiVersion api_version);

  std::uint64_t nodes() const { return nodes_; }
  core::ApiVersion api_version() const { return api_version_; }
  const DrgSeed& drg_seed() const { return drg_seed_; }
  const FeistelKeys& feistel_keys() const { return feistel_keys_; }

  // Each throws std::out_of_range for node ≥ nodes().
  BaseParents base_parents(std::uint64_t node) const;
  ExpanderParents expander_parents(std::uint64_t node) const;
  SdrParents parents(std::uint64_t node) const;

 private:
  void check_node(std::uint64_t node, const char* what) const;

  std::uint64_t nodes_;
  core::ApiVersion api_version_;
  DrgSeed drg_seed_;
  FeistelKeys feistel_keys_;
  FeistelPermutation feistel_;
};

}  // namespace zkpipe::filecoin::porep
