#include "formats/decimal.hpp"

#include <algorithm>

namespace zkpipe::formats {

using ff::u128;
using ff::u64;

namespace {

// value = value·base + digit; false on overflow.
template <std::size_t N>
bool mul_add_small(ff::Limbs<N>& value, u64 base, u64 digit) {
  u64 carry = digit;
  for (auto& limb : value) {
    const u128 t = static_cast<u128>(limb) * base + carry;
    limb = static_cast<u64>(t);
    carry = static_cast<u64>(t >> 64);
  }
  return carry == 0;
}

// value /= divisor, returning the remainder.
template <std::size_t N>
u64 div_small(ff::Limbs<N>& value, u64 divisor) {
  u128 rem = 0;
  for (std::size_t i = N; i-- > 0;) {
    const u128 cur = (rem << 64) | value[i];
    value[i] = static_cast<u64>(cur / divisor);
    rem = cur % divisor;
  }
  return static_cast<u64>(rem);
}

int digit_value(char c, u64 base) {
  int d = -1;
  if (c >= '0' && c <= '9') d = c - '0';
  else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
  else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
  return d >= 0 && static_cast<u64>(d) < base ? d : -1;
}

}  // namespace

template <std::size_t N>
std::optional<ff::Limbs<N>> parse_integer(std::string_view text) {
  u64 base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  ff::Limbs<N> value{};
  for (char c : text) {
    const int d = digit_value(c, base);
    if (d < 0 || !mul_add_small(value, base, static_cast<u64>(d))) return std::nullopt;
  }
  return value;
}

template <std::size_t N>
std::string to_decimal(const ff::Limbs<N>& value) {
  ff::Limbs<N> rest = value;
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + div_small(rest, 10)));
  } while (!ff::limbs_is_zero(rest));
  std::reverse(digits.begin(), digits.end());
  return digits;
}

template std::optional<ff::Limbs<4>> parse_integer<4>(std::string_view);
template std::optional<ff::Limbs<6>> parse_integer<6>(std::string_view);
template std::string to_decimal<4>(const ff::Limbs<4>&);
template std::string to_decimal<6>(const ff::Limbs<6>&);

std::optional<ff::Fr> parse_fr(std::string_view text) {
  auto v = parse_integer<4>(text);
  return v ? ff::Fr::from_canonical(*v) : std::nullopt;
}

std::optional<ff::Fp> parse_fp(std::string_view text) {
  auto v = parse_integer<6>(text);
  return v ? ff::Fp::from_canonical(*v) : std::nullopt;
}

std::string to_decimal(const ff::Fr& x) { return to_decimal(x.to_canonical()); }
std::string to_decimal(const ff::Fp& x) { return to_decimal(x.to_canonical()); }

}  // namespace zkpipe::formats
