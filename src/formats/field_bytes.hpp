// Field elements as the iden3 binary files store them: little-endian integers,
// canonical (r1cs, wtns) or in Montgomery form (zkey points: x·2^384 mod q; zkey
// coefficients: v·2^512 mod r, Montgomery form applied twice).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "ff/limbs.hpp"

namespace zkpipe::formats {

template <std::size_t N>
ff::Limbs<N> limbs_from_le(std::span<const std::uint8_t> bytes) {
  ff::Limbs<N> out{};
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out.data(), bytes.data(), 8 * N);  // keys hold millions of these
  } else {
    for (std::size_t i = 0; i < 8 * N; ++i) out[i / 8] |= static_cast<ff::u64>(bytes[i]) << (8 * (i % 8));
  }
  return out;
}

template <std::size_t N>
void limbs_to_le(const ff::Limbs<N>& limbs, std::span<std::uint8_t> out) {
  for (std::size_t i = 0; i < 8 * N; ++i) out[i] = static_cast<std::uint8_t>(limbs[i / 8] >> (8 * (i % 8)));
}

// nullopt when the integer is not below r.
inline std::optional<ff::Fr> fr_from_le_canonical(std::span<const std::uint8_t> bytes) {
  return ff::Fr::from_canonical(limbs_from_le<4>(bytes));
}

// X = v·R² mod r: X taken as Montgomery limbs is the element v·R, whose canonical
// integer is in turn v's Montgomery limbs.
inline std::optional<ff::Fr> fr_from_le_double_montgomery(std::span<const std::uint8_t> bytes) {
  const auto x = limbs_from_le<4>(bytes);
  if (!ff::limbs_less(x, ff::Fr::kModulus)) return std::nullopt;
  return ff::Fr::from_mont(ff::Fr::from_mont(x).to_canonical());
}

// zkpipe holds Fp in the same Montgomery form (R = 2^384), so the limbs carry over.
inline std::optional<ff::Fp> fp_from_le_montgomery(std::span<const std::uint8_t> bytes) {
  const auto x = limbs_from_le<6>(bytes);
  if (!ff::limbs_less(x, ff::Fp::kModulus)) return std::nullopt;
  return ff::Fp::from_mont(x);
}

template <std::size_t N>
bool is_le_integer(std::span<const std::uint8_t> bytes, const ff::Limbs<N>& value) {
  return bytes.size() == 8 * N && limbs_from_le<N>(bytes) == value;
}

}  // namespace zkpipe::formats
