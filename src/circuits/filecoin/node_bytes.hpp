// A node of a sector, label or commitment as SDR stores it: 32 bytes holding an Fr
// element little-endian. SHA-256 outputs become such nodes by clearing the top two
// bits of the last byte (254 bits, always below r).
// The same truncation is the SHA-256 domain's (sha256_domain.*); this copy keeps the
// SDR files independent until the two are merged.
#pragma once

#include <array>
#include <cstdint>

namespace zkpipe::filecoin {

using NodeBytes = std::array<std::uint8_t, 32>;

inline NodeBytes truncate_to_fr(NodeBytes digest) {
  digest[31] &= 0x3f;
  return digest;
}

}  // namespace zkpipe::filecoin
