#include "r1cs/uint32.hpp"

#include <bit>
#include <stdexcept>

namespace zkpipe::r1cs {

UInt32 UInt32::constant(std::uint32_t value) {
  std::array<Boolean, 32> bits;
  for (unsigned i = 0; i < 32; ++i) bits[i] = Boolean::constant(((value >> i) & 1) != 0);
  return UInt32(bits);
}

UInt32 UInt32::alloc(ConstraintSystem& cs, std::uint32_t value) {
  std::array<Boolean, 32> bits;
  for (unsigned i = 0; i < 32; ++i) bits[i] = Boolean::alloc(cs, ((value >> i) & 1) != 0);
  return UInt32(bits);
}

UInt32 UInt32::from_bits_le(std::span<const Boolean, 32> bits) {
  std::array<Boolean, 32> b;
  for (unsigned i = 0; i < 32; ++i) b[i] = bits[i];
  return UInt32(b);
}

UInt32 UInt32::from_bits_be(std::span<const Boolean, 32> bits) {
  std::array<Boolean, 32> b;
  for (unsigned i = 0; i < 32; ++i) b[i] = bits[31 - i];
  return UInt32(b);
}

std::uint32_t UInt32::value() const {
  std::uint32_t v = 0;
  for (unsigned i = 0; i < 32; ++i) v |= static_cast<std::uint32_t>(bits_[i].value()) << i;
  return v;
}

std::array<Boolean, 32> UInt32::bits_be() const {
  std::array<Boolean, 32> b = bits_;
  for (unsigned i = 0; i < 32; ++i) b[i] = bits_[31 - i];
  return b;
}

UInt32 UInt32::rotr(unsigned n) const {
  std::array<Boolean, 32> b = bits_;
  for (unsigned i = 0; i < 32; ++i) b[i] = bits_[(i + n) % 32];
  return UInt32(b);
}

UInt32 UInt32::shr(unsigned n) const {
  std::array<Boolean, 32> b;  // vacated high bits stay constant zero
  for (unsigned i = 0; i + n < 32; ++i) b[i] = bits_[i + n];
  return UInt32(b);
}

UInt32 UInt32::addmany(ConstraintSystem& cs, std::span<const UInt32> operands) {
  if (operands.empty()) throw std::invalid_argument("UInt32::addmany: no operands");
  // Enough bits for the full sum: 32 + ⌈log2(count)⌉, well inside Fr, so the sum
  // of the operands' bit decompositions never wraps.
  const unsigned sum_bits = 32 + static_cast<unsigned>(std::bit_width(operands.size() - 1));
  std::uint64_t sum_value = 0;
  bool all_constant = true;
  LC operands_lc;
  operands_lc.reserve(32 * operands.size() + 1);
  Fr constant = Fr::zero();
  for (const UInt32& op : operands) {
    sum_value += op.value();
    Fr weight = Fr::one();
    for (const Boolean& bit : op.bits_) {
      bit.add_to(operands_lc, weight, constant);
      all_constant = all_constant && bit.is_constant();
      weight = weight.dbl();
    }
  }
  if (all_constant) return UInt32::constant(static_cast<std::uint32_t>(sum_value));
  if (!constant.is_zero()) operands_lc.add(constant, Variable::one());

  // The sum's bits, each boolean-constrained; their packing must equal the operands'.
  std::array<Boolean, 32> low;
  LC sum_lc;
  Fr no_constant = Fr::zero();  // allocated bits contribute none
  sum_lc.reserve(sum_bits);
  Fr weight = Fr::one();
  for (unsigned i = 0; i < sum_bits; ++i) {
    Boolean bit = Boolean::alloc(cs, ((sum_value >> i) & 1) != 0);
    bit.add_to(sum_lc, weight, no_constant);
    if (i < 32) low[i] = bit;
    weight = weight.dbl();
  }
  cs.enforce(operands_lc, LC(Variable::one()), sum_lc);
  return UInt32(low);
}

UInt32 xor_of(ConstraintSystem& cs, const UInt32& a, const UInt32& b) {
  std::array<Boolean, 32> bits = a.bits_le();
  for (unsigned i = 0; i < 32; ++i) bits[i] = xor_of(cs, a.bits_le()[i], b.bits_le()[i]);
  return UInt32::from_bits_le(bits);
}

UInt32 and_of(ConstraintSystem& cs, const UInt32& a, const UInt32& b) {
  std::array<Boolean, 32> bits = a.bits_le();
  for (unsigned i = 0; i < 32; ++i) bits[i] = and_of(cs, a.bits_le()[i], b.bits_le()[i]);
  return UInt32::from_bits_le(bits);
}

}  // namespace zkpipe::r1cs
