// Points stored byte for byte in their in-memory layout (the native parameter file).
// Such bytes become points only after a check: a 0/1 infinity flag, coordinates
// below p in Montgomery form, and the curve equation for every finite point. A
// corrupted or forged file (checksums recomputed) is then refused at load instead
// of yielding proofs that do not verify. Subgroup membership is not checked here
// (a scalar multiplication per point); a proof from a key with such points fails
// the verification done before it is written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "groth16/keys.hpp"

namespace zkpipe::groth16 {

// bytes.size() must be a multiple of sizeof(Point). The index of the first malformed
// point, or nullopt; runs on all cores.
template <class Point>
std::optional<std::size_t> first_malformed_point(std::span<const std::uint8_t> bytes);

extern template std::optional<std::size_t> first_malformed_point<G1Affine>(std::span<const std::uint8_t>);
extern template std::optional<std::size_t> first_malformed_point<G2Affine>(std::span<const std::uint8_t>);

}  // namespace zkpipe::groth16
