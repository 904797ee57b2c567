// Filecoin's proof bytes: bellperson's Groth16 proof, A (G1), B (G2), C (G1)
// compressed in the zcash encoding, 48 + 96 + 48 = 192 bytes (groth16::Proof's
// encoding), and a proof of several partitions (a 32 GiB sector's PoRep has 10) as
// their proofs concatenated in partition order.
//
// Reading follows bellperson's Proof::read_many: the length must be exactly the
// partitions' 192 bytes each, every point must decode (on the curve, in the
// subgroup), and no point may be at infinity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "groth16/proof.hpp"

namespace zkpipe::formats {

std::vector<std::uint8_t> encode_bellperson_proofs(std::span<const groth16::Proof> partitions);

// Throws FormatError naming `name`, the partition and the byte offset: a length
// that is not a multiple of 192 (or not expected_partitions·192 when given), a point
// that fails decoding, or a point at infinity.
std::vector<groth16::Proof> decode_bellperson_proofs(std::span<const std::uint8_t> bytes, const std::string& name,
                                                     std::optional<std::size_t> expected_partitions = {});

}  // namespace zkpipe::formats
