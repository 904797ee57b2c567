// An SDR label computed in the circuit, as rust-fil-proofs' create_label_circuit
// (storage-proofs-porep stacked/circuit/create_label.rs): SHA-256 over
//   replica_id (zero-padded to 256 bits) ‖ layer (32 bits) ‖ node (64 bits) ‖
//   zeros to 512 bits ‖ 37 parent labels, each zero-padded to 256 bits,
// all bits most significant first within each byte, then the digest's bytes read
// little-endian with the top two bits dropped, packed into one Fr: 20 SHA-256
// blocks and one packing constraint. Constant bits (the layer, the padding) cost
// nothing, as in bellperson.
#pragma once

#include <span>
#include <vector>

#include "gadgets/num.hpp"
#include "gadgets/uint32.hpp"
#include "gadgets/uint64.hpp"

namespace zkpipe::filecoin::porep {

inline constexpr std::size_t kCircuitLabelParents = 37;

// replica_id: 32 to 256 bits; parents: 37 of at most 256 bits each. Throws
// std::invalid_argument otherwise.
gadgets::AllocatedNum create_label_circuit(r1cs::ConstraintSystem& cs, std::span<const gadgets::Boolean> replica_id,
                                        const std::vector<std::vector<gadgets::Boolean>>& parents,
                                        const gadgets::UInt32& layer, const gadgets::UInt64& node);

}  // namespace zkpipe::filecoin::porep
