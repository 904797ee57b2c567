// A 32-bit word in a circuit, as 32 Booleans (least significant first): bellperson's
// UInt32 (gadgets/uint32.rs), operation for operation. Rotations and shifts only
// rename bits; xor costs one constraint per bit where neither side is constant;
// addmany allocates the sum's bits (32 + the carry bits its operand count needs)
// and reports the packing equality to a MultiEq, which batches several into one
// constraint.
//
// Every word also carries its value, which of its bits are constants and which are
// negated views of a variable, as three machine words. On a values-only system
// (constraint_system.hpp) the operations run on those alone — a few word
// instructions and one bulk append of the new bits — and the per-bit Booleans
// exist only where a caller asks for them.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "gadgets/boolean.hpp"
#include "gadgets/multieq.hpp"

namespace zkpipe::gadgets {

class UInt32 {
 public:
  // The constant 0.
  UInt32() = default;

  static UInt32 constant(std::uint32_t value);
  static UInt32 alloc(r1cs::ConstraintSystem& cs, std::uint32_t value);
  static UInt32 from_bits_le(std::span<const Boolean, 32> bits);
  // 32 bits, most significant first (SHA-256's word order within a block).
  static UInt32 from_bits_be(std::span<const Boolean, 32> bits);
  // A values-only system's word: no variables behind its non-constant bits. Bit i
  // of negated_mask: bit i is the complement of its (placeholder) variable.
  static UInt32 of_values(std::uint32_t value, std::uint32_t constant_mask, std::uint32_t negated_mask);

  std::uint32_t value() const { return value_; }
  // Bit i set: bit i is a constant (no variable).
  std::uint32_t constant_mask() const { return constant_mask_; }
  // Bit i set: bit i is a negated view of a variable.
  std::uint32_t negated_mask() const { return negated_mask_; }
  std::array<Boolean, 32> bits_le() const;
  std::array<Boolean, 32> bits_be() const;

  UInt32 rotr(unsigned n) const;
  UInt32 shr(unsigned n) const;

  // Σ operands mod 2^32, for 2 to 10 operands (bellperson's bounds). A constant
  // when every operand is; otherwise new bits with their booleanity constraints,
  // and the packing equality goes to `eq`.
  static UInt32 addmany(MultiEq& eq, std::span<const UInt32> operands);

 private:
  explicit UInt32(const std::array<Boolean, 32>& bits);

  // Meaningful only when has_bits_; a values-only word materializes them on request.
  std::array<Boolean, 32> bits_{};
  std::uint32_t value_ = 0;
  std::uint32_t constant_mask_ = ~std::uint32_t{0};
  std::uint32_t negated_mask_ = 0;
  bool has_bits_ = true;
};

UInt32 xor_of(r1cs::ConstraintSystem& cs, const UInt32& a, const UInt32& b);
// Bitwise SHA-256 choose and majority (Boolean's sha256_ch / sha256_maj per bit).
UInt32 sha256_ch(r1cs::ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);
UInt32 sha256_maj(r1cs::ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c);

// The bits of `value` at the set positions of `mask`, packed from bit 0 up in
// ascending position order: the values of the variables an operation allocates.
std::uint64_t gather_bits(std::uint64_t value, std::uint64_t mask);

}  // namespace zkpipe::gadgets
