#include "circuits/filecoin/porep/sdr_graph.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <string>
#include <vector>

#include "circuits/filecoin/hashers/chacha.hpp"
#include "hash/sha256.hpp"

namespace zkpipe::filecoin::porep {
namespace {

constexpr std::uint64_t kMetagraphDegree = kBaseDegree - 1;

std::uint64_t checked_nodes(std::uint64_t nodes) {
  if (nodes == 0 || nodes > 0xffffffffu) {
    throw std::invalid_argument("SdrGraph: " + std::to_string(nodes) + " nodes, expected 1..2^32-1");
  }
  return nodes;
}

}  // namespace

std::array<std::uint8_t, 32> porep_domain_seed(std::string_view tag, const core::PorepId& porep_id) {
  std::vector<std::uint8_t> message(tag.begin(), tag.end());
  message.insert(message.end(), porep_id.begin(), porep_id.end());
  return hash::sha256::hash(message);
}

DrgSeed derive_drg_seed(const core::PorepId& porep_id) {
  const auto seed = porep_domain_seed("Filecoin_DRSample", porep_id);
  DrgSeed out{};
  std::copy_n(seed.begin(), out.size(), out.begin());
  return out;
}

FeistelKeys derive_feistel_keys(const core::PorepId& porep_id) {
  const auto seed = porep_domain_seed("Filecoin_Feistel", porep_id);
  FeistelKeys keys{};
  for (std::size_t k = 0; k < keys.size(); ++k) {
    for (int b = 7; b >= 0; --b) keys[k] = (keys[k] << 8) | seed[8 * k + b];
  }
  return keys;
}

SdrGraph::SdrGraph(std::uint64_t nodes, const core::PorepId& porep_id, core::ApiVersion api_version)
    : nodes_(checked_nodes(nodes)),
      api_version_(api_version),
      drg_seed_(derive_drg_seed(porep_id)),
      feistel_keys_(derive_feistel_keys(porep_id)),
      feistel_(nodes * kExpansionDegree, feistel_keys_) {}

void SdrGraph::check_node(std::uint64_t node, const char* what) const {
  if (node >= nodes_) {
    throw std::out_of_range(std::string("SdrGraph::") + what + ": node " + std::to_string(node) + " outside [0, " +
                            std::to_string(nodes_) + ")");
  }
}

BaseParents SdrGraph::base_parents(std::uint64_t node) const {
  check_node(node, "base_parents");
  BaseParents parents{};
  if (node < 2) return parents;  // node 0 has no parents, node 1 only node 0

  hashers::ChaChaKey seed{};
  std::copy(drg_seed_.begin(), drg_seed_.end(), seed.begin());
  for (int b = 0; b < 4; ++b) seed[28 + b] = static_cast<std::uint8_t>(node >> (8 * b));
  hashers::ChaCha8Rng rng(seed);

  // Bucket sampling on the metagraph of degree 5 (node·5 .. node·5+4 stand for node),
  // folded back onto the DRG. The reference takes ceil(log2(m)) in f64; for m < 2^54
  // it equals the integer bit width of m − 1.
  const std::uint64_t metagraph_node = node * kMetagraphDegree;
  const std::uint64_t buckets = std::bit_width(metagraph_node - 1);
  const bool legacy = api_version_ == core::ApiVersion::k1_0_0;
  const std::size_t first_sampled = legacy ? 0 : 1;
  for (std::size_t i = 0; i < kMetagraphDegree; ++i) {
    const std::uint64_t bucket = rng.next_u64() % buckets + 1;
    const std::uint64_t largest = std::min(metagraph_node, std::uint64_t{1} << bucket);
    const std::uint64_t smallest = std::max<std::uint64_t>(2, largest >> 1);
    const std::uint64_t distance = smallest + rng.next_u64() % (largest - smallest + 1);
    const std::uint64_t parent = (metagraph_node - distance) / kMetagraphDegree;
    parents[first_sampled + i] = static_cast<std::uint32_t>(parent == node ? node - 1 : parent);
  }
  // The predecessor is a parent so that no label can be computed before the one before it.
  parents[legacy ? kMetagraphDegree : 0] = static_cast<std::uint32_t>(node - 1);
  return parents;
}

ExpanderParents SdrGraph::expander_parents(std::uint64_t node) const {
  check_node(node, "expander_parents");
  ExpanderParents parents{};
  for (std::size_t i = 0; i < kExpansionDegree; ++i) {
    const std::uint64_t shuffled = feistel_.permute(node * kExpansionDegree + i);
    // Version 1.0.0 truncated to 32 bits before dividing, which keeps the parents of
    // sectors above 2^29 nodes out of the upper part of the previous layer.
    parents[i] = api_version_ == core::ApiVersion::k1_0_0
                     ? static_cast<std::uint32_t>(shuffled) / static_cast<std::uint32_t>(kExpansionDegree)
                     : static_cast<std::uint32_t>(shuffled / kExpansionDegree);
  }
  return parents;
}

SdrParents SdrGraph::parents(std::uint64_t node) const {
  const BaseParents base = base_parents(node);
  const ExpanderParents expander = expander_parents(node);
  SdrParents all{};
  std::copy(base.begin(), base.end(), all.begin());
  std::copy(expander.begin(), expander.end(), all.begin() + kBaseDegree);
  return all;
}

}  // namespace zkpipe::filecoin::porep
