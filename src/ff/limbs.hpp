// Fixed-width unsigned integers as little-endian arrays of 64-bit limbs.
// Everything here is constexpr so that field constants can be derived from the
// modulus at compile time instead of being typed in by hand.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
#include <x86intrin.h>
#define ZKPIPE_FF_X86_64 1
#endif

namespace zkpipe::ff {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

template <std::size_t N>
using Limbs = std::array<u64, N>;

// a + b + carry -> (sum, carry out). carry must be 0 or 1.
// At run time on x86-64 the intrinsic lets GCC emit one adc chain; its generic
// 128-bit code spills every partial sum to the stack.
constexpr u64 add_carry(u64 a, u64 b, u64& carry) {
#ifdef ZKPIPE_FF_X86_64
  if (!std::is_constant_evaluated()) {
    unsigned long long sum = 0;
    carry = _addcarry_u64(static_cast<unsigned char>(carry), a, b, &sum);
    return sum;
  }
#endif
  u128 t = static_cast<u128>(a) + b + carry;
  carry = static_cast<u64>(t >> 64);
  return static_cast<u64>(t);
}

// a - b - borrow -> (difference, borrow out as 0 or 1). borrow must be 0 or 1.
constexpr u64 sub_borrow(u64 a, u64 b, u64& borrow) {
#ifdef ZKPIPE_FF_X86_64
  if (!std::is_constant_evaluated()) {
    unsigned long long diff = 0;
    borrow = _subborrow_u64(static_cast<unsigned char>(borrow), a, b, &diff);
    return diff;
  }
#endif
  u128 t = static_cast<u128>(a) - b - borrow;
  borrow = static_cast<u64>(t >> 64) & 1;
  return static_cast<u64>(t);
}

// a * b + c + d -> (low word, high word in carry); never overflows 128 bits.
constexpr u64 mul_add(u64 a, u64 b, u64 c, u64& carry) {
  u128 t = static_cast<u128>(a) * b + c + carry;
  carry = static_cast<u64>(t >> 64);
  return static_cast<u64>(t);
}

template <std::size_t N>
constexpr bool limbs_is_zero(const Limbs<N>& a) {
  u64 acc = 0;
  for (std::size_t i = 0; i < N; ++i) acc |= a[i];
  return acc == 0;
}

// a < b as unsigned integers
template <std::size_t N>
constexpr bool limbs_less(const Limbs<N>& a, const Limbs<N>& b) {
  u64 borrow = 0;
  for (std::size_t i = 0; i < N; ++i) sub_borrow(a[i], b[i], borrow);
  return borrow != 0;
}

// r = a + b; returns the carry out
template <std::size_t N>
constexpr u64 limbs_add(Limbs<N>& r, const Limbs<N>& a, const Limbs<N>& b) {
  u64 carry = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = add_carry(a[i], b[i], carry);
  return carry;
}

// r = a - b; returns the borrow out
template <std::size_t N>
constexpr u64 limbs_sub(Limbs<N>& r, const Limbs<N>& a, const Limbs<N>& b) {
  u64 borrow = 0;
  for (std::size_t i = 0; i < N; ++i) r[i] = sub_borrow(a[i], b[i], borrow);
  return borrow;
}

template <std::size_t N>
constexpr void limbs_shr1(Limbs<N>& a) {
  for (std::size_t i = 0; i + 1 < N; ++i) a[i] = (a[i] >> 1) | (a[i + 1] << 63);
  a[N - 1] >>= 1;
}

template <std::size_t N>
constexpr bool limbs_bit(const Limbs<N>& a, std::size_t i) {
  return (a[i / 64] >> (i % 64)) & 1;
}

template <std::size_t N>
constexpr std::size_t limbs_bit_length(const Limbs<N>& a) {
  for (std::size_t i = N; i-- > 0;) {
    if (a[i] != 0) return i * 64 + 64 - static_cast<std::size_t>(__builtin_clzll(a[i]));
  }
  return 0;
}

// Big-endian bytes <-> limbs. The byte span must hold exactly 8*N bytes.
template <std::size_t N>
constexpr Limbs<N> limbs_from_be_bytes(std::span<const std::uint8_t, 8 * N> bytes) {
  Limbs<N> r{};
  for (std::size_t i = 0; i < 8 * N; ++i) {
    r[(8 * N - 1 - i) / 8] |= static_cast<u64>(bytes[i]) << (8 * ((8 * N - 1 - i) % 8));
  }
  return r;
}

template <std::size_t N>
constexpr void limbs_to_be_bytes(const Limbs<N>& a, std::span<std::uint8_t, 8 * N> out) {
  for (std::size_t i = 0; i < 8 * N; ++i) {
    out[i] = static_cast<std::uint8_t>(a[(8 * N - 1 - i) / 8] >> (8 * ((8 * N - 1 - i) % 8)));
  }
}

}  // namespace zkpipe::ff
