// A 32-bit word in a circuit, as 32 Booleans (least significant first).
// Rotations and shifts only rename bits; xor / and cost one constraint per
// non-constant bit; addmany adds several words mod 2^32 with one packing constraint
// plus the booleanity of the sum's bits.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "r1cs/boolean.hpp"

namespace zkpipe::r1cs {

class UInt32 {
 public:
  // The constant 0.
  UInt32() = default;

  static UInt32 constant(std::uint32_t value);
  static UInt32 alloc(ConstraintSystem& cs, std::uint32_t value);
  static UInt32 from_bits_le(std::span<const Boolean, 32> bits);
  // 32 bits, most significant first (SHA-256's word order within a block).
  static UInt32 from_bits_be(std::span<const Boolean, 32> bits);

  std::uint32_t value() const;
  const std::array<Boolean, 32>& bits_le() const { return bits_; }
  std::array<Boolean, 32> bits_be() const;

  UInt32 rotr(unsigned n) const;
  UInt32 shr(unsigned n) const;

  // Σ operands mod 2^32.
  static UInt32 addmany(ConstraintSystem& cs, std::span<const UInt32> operands);

 private:
  explicit UInt32(const std::array<Boolean, 32>& bits) : bits_(bits) {}

  std::array<Boolean, 32> bits_;
};

UInt32 xor_of(ConstraintSystem& cs, const UInt32& a, const UInt32& b);
UInt32 and_of(ConstraintSystem& cs, const UInt32& a, const UInt32& b);

}  // namespace zkpipe::r1cs
