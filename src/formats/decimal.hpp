// Integers and field elements as the text snarkjs writes and reads: decimal strings
// (and "0x…" hex, which snarkjs also accepts), canonical values, never Montgomery.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "ff/limbs.hpp"

namespace zkpipe::formats {

// A non-negative integer in decimal, or hex after "0x"/"0X"; nullopt for an empty
// string, any other character, or a value that does not fit in N limbs.
template <std::size_t N>
std::optional<ff::Limbs<N>> parse_integer(std::string_view text);

template <std::size_t N>
std::string to_decimal(const ff::Limbs<N>& value);

// nullopt also when the value is not below the field's modulus.
std::optional<ff::Fr> parse_fr(std::string_view text);
std::optional<ff::Fp> parse_fp(std::string_view text);

std::string to_decimal(const ff::Fr& x);
std::string to_decimal(const ff::Fp& x);

extern template std::optional<ff::Limbs<4>> parse_integer<4>(std::string_view);
extern template std::optional<ff::Limbs<6>> parse_integer<6>(std::string_view);
extern template std::string to_decimal<4>(const ff::Limbs<4>&);
extern template std::string to_decimal<6>(const ff::Limbs<6>&);

}  // namespace zkpipe::formats
