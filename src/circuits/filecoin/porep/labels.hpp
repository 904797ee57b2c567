// SDR labels. The label of node v in layer L (L from 1) is
//   SHA-256(replica_id ‖ L as u32 big-endian ‖ v as u64 big-endian ‖ 20 zero bytes ‖
//           37 parent labels) truncated to 254 bits,
// where the 37 slots repeat the parents in order: in layer 1 the 6 base parents
// (labels of this layer), from layer 2 on the 6 base parents followed by the 8 expander
// parents (labels of the previous layer). Node 0 hashes only the first 64 bytes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "circuits/filecoin/core/node_bytes.hpp"
#include "circuits/filecoin/porep/replica_id.hpp"
#include "circuits/filecoin/porep/sdr_graph.hpp"

namespace zkpipe::filecoin::porep {

inline constexpr std::size_t kLabelParentSlots = 37;

// `parents` holds the distinct parent labels in graph order: none for node 0, 6 in
// layer 1, 14 in later layers. Throws std::invalid_argument for layer 0 or a parent
// count that does not match the layer and node.
core::NodeBytes label(const ReplicaId& replica_id, std::uint32_t layer, std::uint64_t node,
                      std::span<const core::NodeBytes> parents);

using LabelLayer = std::vector<core::NodeBytes>;

// The parent labels of (layer, node), read from `labels` (labels[0] is layer 1), in the
// order label() takes them. Throws std::out_of_range when a needed layer is missing.
std::vector<core::NodeBytes> parent_labels(const SdrGraph& graph, std::span<const LabelLayer> labels,
                                           std::uint32_t layer, std::uint64_t node);

// Every label of every layer, held in memory (layers · nodes · 32 bytes): for test
// sectors and for checking; sealing a production sector is not this program's job.
std::vector<LabelLayer> generate_labels(const SdrGraph& graph, const ReplicaId& replica_id, std::size_t layers);

}  // namespace zkpipe::filecoin::porep
