// A Groth16 proof and its 192-byte compressed encoding (A in G1, B in G2, C in G1,
// zcash point format), the layout bellperson writes; a multi-partition proof is the
// concatenation of its partitions' encodings in partition order.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "groth16/keys.hpp"

namespace zkpipe::groth16 {

struct Proof {
  G1Affine a;
  G2Affine b;
  G1Affine c;

  static constexpr std::size_t kEncodedSize = 48 + 96 + 48;

  bool operator==(const Proof&) const = default;

  std::array<std::uint8_t, kEncodedSize> encode() const;
  // Validates every point (flags, canonical, on curve, in subgroup); throws
  // ec::PointDecodeError naming the point (A, B or C) that failed.
  static Proof decode(std::span<const std::uint8_t> bytes);
};

std::vector<std::uint8_t> encode_proofs(std::span<const Proof> proofs);
// Splits P·192 bytes into P proofs; throws std::invalid_argument on a size that is
// not a multiple of 192, with the size in the message.
std::vector<Proof> decode_proofs(std::span<const std::uint8_t> bytes);

}  // namespace zkpipe::groth16
