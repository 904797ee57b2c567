#include "gadgets/uint32.hpp"

#include <bit>
#include <stdexcept>

namespace zkpipe::r1cs {

namespace {

constexpr std::uint32_t kAllBits = ~std::uint32_t{0};

}  // namespace

std::uint64_t gather_bits(std::uint64_t value, std::uint64_t mask) {
  std::uint64_t out = 0;
  unsigned k = 0;
  for (std::uint64_t m = mask; m != 0; m &= m - 1) {
    out |= ((value >> std::countr_zero(m)) & 1) << k++;
  }
  return out;
}

UInt32::UInt32(const std::array<Boolean, 32>& bits) : bits_(bits), value_(0), constant_mask_(0) {
  for (unsigned i = 0; i < 32; ++i) {
    value_ |= static_cast<std::uint32_t>(bits[i].value()) << i;
    constant_mask_ |= static_cast<std::uint32_t>(bits[i].is_constant()) << i;
  }
}

UInt32 UInt32::constant(std::uint32_t value) {
  std::array<Boolean, 32> bits;
  for (unsigned i = 0; i < 32; ++i) bits[i] = Boolean::constant(((value >> i) & 1) != 0);
  return UInt32(bits);
}

UInt32 UInt32::of_values(std::uint32_t value, std::uint32_t constant_mask) {
  UInt32 w;
  w.value_ = value;
  w.constant_mask_ = constant_mask;
  w.has_bits_ = false;
  return w;
}

UInt32 UInt32::alloc(ConstraintSystem& cs, std::uint32_t value) {
  if (cs.values_only()) {
    cs.alloc_bit_values(value, 32);
    cs.skip_constraints(32);
    return of_values(value, 0);
  }
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

std::array<Boolean, 32> UInt32::bits_le() const {
  if (has_bits_) return bits_;
  std::array<Boolean, 32> b;
  for (unsigned i = 0; i < 32; ++i) {
    const bool v = ((value_ >> i) & 1) != 0;
    b[i] = ((constant_mask_ >> i) & 1) != 0 ? Boolean::constant(v) : Boolean::from_constrained_variable(Variable(), v);
  }
  return b;
}

std::array<Boolean, 32> UInt32::bits_be() const {
  const std::array<Boolean, 32> le = bits_le();
  std::array<Boolean, 32> b;
  for (unsigned i = 0; i < 32; ++i) b[i] = le[31 - i];
  return b;
}

UInt32 UInt32::rotr(unsigned n) const {
  n %= 32;
  if (!has_bits_) return of_values(std::rotr(value_, static_cast<int>(n)), std::rotr(constant_mask_, static_cast<int>(n)));
  std::array<Boolean, 32> b;
  for (unsigned i = 0; i < 32; ++i) b[i] = bits_[(i + n) % 32];
  return UInt32(b);
}

UInt32 UInt32::shr(unsigned n) const {
  if (n >= 32) return UInt32();
  if (!has_bits_) {
    // The vacated high bits are constant zero.
    return of_values(value_ >> n, (constant_mask_ >> n) | ~(kAllBits >> n));
  }
  std::array<Boolean, 32> b;
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
  for (const UInt32& op : operands) {
    sum_value += op.value_;
    all_constant = all_constant && op.constant_mask_ == kAllBits;
  }
  if (all_constant) return UInt32::constant(static_cast<std::uint32_t>(sum_value));
  if (cs.values_only()) {
    // The sum's bits and their booleanity, and the packing constraint.
    cs.alloc_bit_values(sum_value, sum_bits);
    cs.skip_constraints(sum_bits + 1);
    return of_values(static_cast<std::uint32_t>(sum_value), 0);
  }

  LC operands_lc;
  operands_lc.reserve(32 * operands.size() + 1);
  Fr constant = Fr::zero();
  for (const UInt32& op : operands) {
    Fr weight = Fr::one();
    for (const Boolean& bit : op.bits_le()) {
      bit.add_to(operands_lc, weight, constant);
      weight = weight.dbl();
    }
  }
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
  if (cs.values_only()) {
    // A bit with a constant side is the other side or its negation; only bits where
    // both sides are variables allocate.
    const std::uint32_t allocated = ~a.constant_mask() & ~b.constant_mask();
    const std::uint32_t value = a.value() ^ b.value();
    cs.alloc_bit_values(gather_bits(value, allocated), static_cast<unsigned>(std::popcount(allocated)));
    cs.skip_constraints(static_cast<std::size_t>(std::popcount(allocated)));
    return UInt32::of_values(value, a.constant_mask() & b.constant_mask());
  }
  const std::array<Boolean, 32> x = a.bits_le();
  const std::array<Boolean, 32> y = b.bits_le();
  std::array<Boolean, 32> bits;
  for (unsigned i = 0; i < 32; ++i) bits[i] = xor_of(cs, x[i], y[i]);
  return UInt32::from_bits_le(bits);
}

UInt32 and_of(ConstraintSystem& cs, const UInt32& a, const UInt32& b) {
  const std::array<Boolean, 32> x = a.bits_le();
  const std::array<Boolean, 32> y = b.bits_le();
  std::array<Boolean, 32> bits;
  for (unsigned i = 0; i < 32; ++i) bits[i] = and_of(cs, x[i], y[i]);
  return UInt32::from_bits_le(bits);
}

}  // namespace zkpipe::r1cs
