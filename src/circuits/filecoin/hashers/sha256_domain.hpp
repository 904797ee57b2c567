// Filecoin's SHA-256 domain (filecoin-hashers Sha256Domain/Sha256Function): a
// 32-byte node is a little-endian Fr representation, and every digest has the two
// top bits of its last byte cleared (trim_to_fr32) so that it is one.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "ff/fr.hpp"

namespace zkpipe::filecoin::hashers {

using Sha256Domain = std::array<std::uint8_t, 32>;

// Sha256Function::hash: SHA-256 of the bytes, trimmed.
Sha256Domain trimmed_sha256(std::span<const std::uint8_t> data);

// Sha256Function::hash2 and the tree node: SHA-256(left ‖ right), trimmed (also
// filecoin-proofs' piece_hash).
Sha256Domain sha256_hash2(const Sha256Domain& left, const Sha256Domain& right);

// The node as an Fr (from_repr); throws std::invalid_argument naming the value when
// it is not below the modulus.
ff::Fr domain_to_fr(const Sha256Domain& node);

// The canonical little-endian bytes of an Fr (to_repr).
Sha256Domain fr_to_domain(const ff::Fr& x);

}  // namespace zkpipe::filecoin::hashers
