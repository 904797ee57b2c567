#include "gadgets/uint32.hpp"

#include <bit>
#include <stdexcept>
#include <string>

namespace zkpipe::gadgets {

namespace {

constexpr std::uint32_t kAllBits = ~std::uint32_t{0};

template <class BitOp>
UInt32 per_bit(const UInt32& a, const UInt32& b, const UInt32& c, const BitOp& op) {
  const std::array<Boolean, 32> x = a.bits_le();
  const std::array<Boolean, 32> y = b.bits_le();
  const std::array<Boolean, 32> z = c.bits_le();
  std::array<Boolean, 32> bits;
  for (unsigned i = 0; i < 32; ++i) bits[i] = op(x[i], y[i], z[i]);
  return UInt32::from_bits_le(bits);
}

bool any_constant(const UInt32& a, const UInt32& b, const UInt32& c) {
  return (a.constant_mask() | b.constant_mask() | c.constant_mask()) != 0;
}

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
    negated_mask_ |= static_cast<std::uint32_t>(bits[i].is_negated()) << i;
  }
}

UInt32 UInt32::constant(std::uint32_t value) {
  std::array<Boolean, 32> bits;
  for (unsigned i = 0; i < 32; ++i) bits[i] = Boolean::constant(((value >> i) & 1) != 0);
  return UInt32(bits);
}

UInt32 UInt32::of_values(std::uint32_t value, std::uint32_t constant_mask, std::uint32_t negated_mask) {
  UInt32 w;
  w.value_ = value;
  w.constant_mask_ = constant_mask;
  w.negated_mask_ = negated_mask & ~constant_mask;
  w.has_bits_ = false;
  return w;
}

UInt32 UInt32::alloc(r1cs::ConstraintSystem& cs, std::uint32_t value) {
  if (cs.values_only()) {
    cs.alloc_bit_values(value, 32);
    cs.skip_constraints(32);
    return of_values(value, 0, 0);
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
    if (((constant_mask_ >> i) & 1) != 0) {
      b[i] = Boolean::constant(v);
    } else if (((negated_mask_ >> i) & 1) != 0) {
      b[i] = !Boolean::from_constrained_variable(r1cs::Variable(), !v);
    } else {
      b[i] = Boolean::from_constrained_variable(r1cs::Variable(), v);
    }
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
  if (!has_bits_) {
    const int k = static_cast<int>(n);
    return of_values(std::rotr(value_, k), std::rotr(constant_mask_, k), std::rotr(negated_mask_, k));
  }
  std::array<Boolean, 32> b;
  for (unsigned i = 0; i < 32; ++i) b[i] = bits_[(i + n) % 32];
  return UInt32(b);
}

UInt32 UInt32::shr(unsigned n) const {
  if (n >= 32) return UInt32();
  if (!has_bits_) {
    // The vacated high bits are constant zero.
    return of_values(value_ >> n, (constant_mask_ >> n) | ~(kAllBits >> n), negated_mask_ >> n);
  }
  std::array<Boolean, 32> b;
  for (unsigned i = 0; i + n < 32; ++i) b[i] = bits_[i + n];
  return UInt32(b);
}

UInt32 UInt32::addmany(MultiEq& eq, std::span<const UInt32> operands) {
  if (operands.size() < 2 || operands.size() > 10) {
    throw std::invalid_argument("UInt32::addmany: between 2 and 10 operands, got " + std::to_string(operands.size()));
  }
  // As many bits as the largest possible sum, n·(2^32 − 1), needs.
  const auto sum_bits = static_cast<unsigned>(std::bit_width(operands.size() * std::uint64_t{kAllBits}));
  std::uint64_t sum_value = 0;
  bool all_constant = true;
  for (const UInt32& op : operands) {
    sum_value += op.value_;
    all_constant = all_constant && op.constant_mask_ == kAllBits;
  }
  if (all_constant) return UInt32::constant(static_cast<std::uint32_t>(sum_value));
  r1cs::ConstraintSystem& cs = eq.cs();
  if (cs.values_only()) {
    // The sum's bits and their booleanity; the packing equality is batched.
    cs.alloc_bit_values(sum_value, sum_bits);
    cs.skip_constraints(sum_bits);
    eq.enforce_equal(sum_bits, r1cs::LC(), r1cs::LC());
    return of_values(static_cast<std::uint32_t>(sum_value), 0, 0);
  }

  r1cs::LC operands_lc;
  operands_lc.reserve(32 * operands.size() + 1);
  ff::Fr constant = ff::Fr::zero();
  for (const UInt32& op : operands) {
    ff::Fr weight = ff::Fr::one();
    for (const Boolean& bit : op.bits_le()) {
      bit.add_to(operands_lc, weight, constant);
      weight = weight.dbl();
    }
  }
  if (!constant.is_zero()) operands_lc.add(constant, r1cs::Variable::one());

  std::array<Boolean, 32> low;
  r1cs::LC sum_lc;
  sum_lc.reserve(sum_bits);
  ff::Fr weight = ff::Fr::one();
  for (unsigned i = 0; i < sum_bits; ++i) {
    const Boolean bit = Boolean::alloc(cs, ((sum_value >> i) & 1) != 0);
    sum_lc.add(weight, bit.variable());
    if (i < 32) low[i] = bit;
    weight = weight.dbl();
  }
  eq.enforce_equal(sum_bits, operands_lc, sum_lc);
  return UInt32(low);
}

UInt32 xor_of(r1cs::ConstraintSystem& cs, const UInt32& a, const UInt32& b) {
  if (cs.values_only()) {
    // A bit with a constant side is the other side or its negation; bits where both
    // sides are variables allocate the xor of the two variables, negated when
    // exactly one side is (Boolean's xor_of).
    const std::uint32_t ca = a.constant_mask();
    const std::uint32_t cb = b.constant_mask();
    const std::uint32_t allocated = ~ca & ~cb;
    const std::uint32_t stored = (a.value() ^ a.negated_mask()) ^ (b.value() ^ b.negated_mask());
    cs.alloc_bit_values(gather_bits(stored, allocated), static_cast<unsigned>(std::popcount(allocated)));
    cs.skip_constraints(static_cast<std::size_t>(std::popcount(allocated)));
    const std::uint32_t negated = a.negated_mask() ^ b.negated_mask() ^ (a.value() & ca) ^ (b.value() & cb);
    return UInt32::of_values(a.value() ^ b.value(), ca & cb, negated);
  }
  const std::array<Boolean, 32> x = a.bits_le();
  const std::array<Boolean, 32> y = b.bits_le();
  std::array<Boolean, 32> bits;
  for (unsigned i = 0; i < 32; ++i) bits[i] = xor_of(cs, x[i], y[i]);
  return UInt32::from_bits_le(bits);
}

UInt32 sha256_ch(r1cs::ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  if (cs.values_only() && !any_constant(a, b, c)) {
    // One new bit per position.
    const std::uint32_t value = (a.value() & b.value()) | (~a.value() & c.value());
    cs.alloc_bit_values(value, 32);
    cs.skip_constraints(32);
    return UInt32::of_values(value, 0, 0);
  }
  return per_bit(a, b, c, [&](const Boolean& x, const Boolean& y, const Boolean& z) { return sha256_ch(cs, x, y, z); });
}

UInt32 sha256_maj(r1cs::ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  if (cs.values_only() && !any_constant(a, b, c)) {
    // Two new bits per position, in allocation order: the majority, then b·c.
    const std::uint32_t bc = b.value() & c.value();
    const std::uint32_t value = (a.value() & (b.value() | c.value())) | bc;
    std::uint64_t interleaved = 0;
    for (unsigned i = 0; i < 32; ++i) {
      interleaved |= static_cast<std::uint64_t>((value >> i) & 1) << (2 * i);
      interleaved |= static_cast<std::uint64_t>((bc >> i) & 1) << (2 * i + 1);
    }
    cs.alloc_bit_values(interleaved, 64);
    cs.skip_constraints(64);
    return UInt32::of_values(value, 0, 0);
  }
  return per_bit(a, b, c, [&](const Boolean& x, const Boolean& y, const Boolean& z) { return sha256_maj(cs, x, y, z); });
}

}  // namespace zkpipe::gadgets
