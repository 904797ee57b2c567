// SHA-256 (FIPS 180-4) outside the circuit: for witness generation and as the
// reference the gadget is tested against.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace zkpipe::hash::sha256 {

using Digest = std::array<std::uint8_t, 32>;
using State = std::array<std::uint32_t, 8>;

void compress(State& state, std::span<const std::uint8_t, 64> block);

Digest hash(std::span<const std::uint8_t> message);

}  // namespace zkpipe::hash::sha256
