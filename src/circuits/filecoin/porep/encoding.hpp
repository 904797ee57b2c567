// SDR's encoding of sector data into the replica: each node of the replica is the
// data node plus the last layer's label of that node, in Fr (rust-fil-proofs encode.rs).
#pragma once

#include "circuits/filecoin/core/node_bytes.hpp"

namespace zkpipe::filecoin::porep {

// Both throw std::invalid_argument naming the operand that is not a canonical Fr
// element (32 bytes little-endian, below r).
core::NodeBytes encode(const core::NodeBytes& key, const core::NodeBytes& data);
core::NodeBytes decode(const core::NodeBytes& key, const core::NodeBytes& replica);

}  // namespace zkpipe::filecoin::porep
