#include "circuits/filecoin/porep/labels.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "circuits/filecoin/hashers/sha256_domain.hpp"

namespace zkpipe::filecoin::porep {
namespace {

constexpr std::size_t kPrefixBytes = 64;

std::size_t expected_parents(std::uint32_t layer, std::uint64_t node) {
  if (node == 0) return 0;
  return layer == 1 ? kBaseDegree : kDegree;
}

}  // namespace

core::NodeBytes label(const ReplicaId& replica_id, std::uint32_t layer, std::uint64_t node,
                      std::span<const core::NodeBytes> parents) {
  if (layer == 0) throw std::invalid_argument("label: layer 0 (layers count from 1)");
  if (parents.size() != expected_parents(layer, node)) {
    throw std::invalid_argument("label: layer " + std::to_string(layer) + " node " + std::to_string(node) + " got " +
                                std::to_string(parents.size()) + " parent labels, expected " +
                                std::to_string(expected_parents(layer, node)));
  }
  std::vector<std::uint8_t> message(kPrefixBytes + (parents.empty() ? 0 : kLabelParentSlots * sizeof(core::NodeBytes)));
  std::copy(replica_id.begin(), replica_id.end(), message.begin());
  for (int b = 0; b < 4; ++b) message[32 + b] = static_cast<std::uint8_t>(layer >> (8 * (3 - b)));
  for (int b = 0; b < 8; ++b) message[36 + b] = static_cast<std::uint8_t>(node >> (8 * (7 - b)));
  for (std::size_t slot = 0; !parents.empty() && slot < kLabelParentSlots; ++slot) {
    const core::NodeBytes& parent = parents[slot % parents.size()];
    std::copy(parent.begin(), parent.end(), message.begin() + kPrefixBytes + slot * sizeof(core::NodeBytes));
  }
  return hashers::trimmed_sha256(message);
}

std::vector<core::NodeBytes> parent_labels(const SdrGraph& graph, std::span<const LabelLayer> labels,
                                           std::uint32_t layer, std::uint64_t node) {
  if (layer == 0 || layer > labels.size()) {
    throw std::out_of_range("parent_labels: layer " + std::to_string(layer) + " outside the " +
                            std::to_string(labels.size()) + " layers given");
  }
  if (node == 0) return {};
  const LabelLayer& current = labels[layer - 1];
  const auto read = [&](const LabelLayer& in, std::uint32_t parent, std::uint32_t from_layer) {
    if (parent >= in.size()) {
      throw std::out_of_range("parent_labels: layer " + std::to_string(from_layer) + " holds " +
                              std::to_string(in.size()) + " labels, parent " + std::to_string(parent) + " needed");
    }
    return in[parent];
  };
  std::vector<core::NodeBytes> out;
  out.reserve(kDegree);
  for (std::uint32_t parent : graph.base_parents(node)) out.push_back(read(current, parent, layer));
  if (layer > 1) {
    for (std::uint32_t parent : graph.expander_parents(node)) out.push_back(read(labels[layer - 2], parent, layer - 1));
  }
  return out;
}

std::vector<LabelLayer> generate_labels(const SdrGraph& graph, const ReplicaId& replica_id, std::size_t layers) {
  if (layers == 0 || layers > 0xffffffffu) {
    throw std::invalid_argument("generate_labels: " + std::to_string(layers) + " layers, expected 1..2^32-1");
  }
  std::vector<LabelLayer> labels;
  labels.reserve(layers);
  for (std::uint32_t layer = 1; layer <= layers; ++layer) {
    labels.emplace_back(graph.nodes());
    // Labels of a layer are computed in node order: each reads earlier ones of its own layer.
    for (std::uint64_t node = 0; node < graph.nodes(); ++node) {
      const std::vector<core::NodeBytes> parents = parent_labels(graph, labels, layer, node);
      labels.back()[node] = label(replica_id, layer, node, parents);
    }
  }
  return labels;
}

}  // namespace zkpipe::filecoin::porep
