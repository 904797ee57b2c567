#include "gadgets/boolean.hpp"

#include <stdexcept>

namespace zkpipe::r1cs {

namespace {

Fr fr_of(bool b) { return b ? Fr::one() : Fr::zero(); }

// A values-only system's new bit: the value, `constraints` counted, a placeholder variable.
Boolean values_only_bit(ConstraintSystem& cs, bool value, std::size_t constraints) {
  cs.alloc_bit_values(value, 1);
  cs.skip_constraints(constraints);
  return Boolean::from_constrained_variable(Variable(), value);
}

}  // namespace

Boolean Boolean::alloc(ConstraintSystem& cs, bool value) {
  if (cs.values_only()) return values_only_bit(cs, value, 1);
  Variable v = cs.alloc([&] { return fr_of(value); });
  cs.enforce(LC::constant(Fr::one()) - LC(v), LC(v), LC());
  return Boolean(Kind::kIs, v, value);
}

Boolean Boolean::operator!() const {
  switch (kind_) {
    case Kind::kConstant:
      return constant(!value_);
    case Kind::kIs:
      return Boolean(Kind::kNot, var_, !value_);
    case Kind::kNot:
      return Boolean(Kind::kIs, var_, !value_);
  }
  throw std::logic_error("Boolean: bad kind");
}

LC Boolean::lc() const {
  LC lc;
  Fr constant = Fr::zero();
  add_to(lc, Fr::one(), constant);
  if (!constant.is_zero()) lc.add(constant, Variable::one());
  return lc;
}

void Boolean::add_to(LC& lc, const Fr& coeff, Fr& constant) const {
  switch (kind_) {
    case Kind::kConstant:
      if (value_) constant += coeff;
      return;
    case Kind::kIs:
      lc.add(coeff, var_);
      return;
    case Kind::kNot:
      constant += coeff;
      lc.add(-coeff, var_);
      return;
  }
}

Boolean xor_of(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant()) return a.value() ? !b : b;
  if (b.is_constant()) return b.value() ? !a : a;
  const bool value = a.value() != b.value();
  if (cs.values_only()) return values_only_bit(cs, value, 1);
  Variable c = cs.alloc([&] { return fr_of(value); });
  // 2a·b = a + b − c: c is a ⊕ b, and therefore boolean.
  const Fr two = Fr::from_u64(2);
  cs.enforce(two * a.lc(), b.lc(), a.lc() + b.lc() - LC(c));
  return Boolean::from_constrained_variable(c, value);
}

Boolean and_of(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant()) return a.value() ? b : Boolean::constant(false);
  if (b.is_constant()) return b.value() ? a : Boolean::constant(false);
  const bool value = a.value() && b.value();
  if (cs.values_only()) return values_only_bit(cs, value, 1);
  Variable c = cs.alloc([&] { return fr_of(value); });
  cs.enforce(a.lc(), b.lc(), LC(c));
  return Boolean::from_constrained_variable(c, value);
}

Boolean sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  if (a.is_constant()) return a.value() ? b : c;
  if (b.is_constant() && c.is_constant()) {
    if (b.value() == c.value()) return b;
    return b.value() ? a : !a;
  }
  const bool value = a.value() ? b.value() : c.value();
  if (cs.values_only()) return values_only_bit(cs, value, 1);
  Variable ch = cs.alloc([&] { return fr_of(value); });
  // a·(b − c) = ch − c
  cs.enforce(a.lc(), b.lc() - c.lc(), LC(ch) - c.lc());
  return Boolean::from_constrained_variable(ch, value);
}

Boolean sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  if (a.is_constant()) {
    return a.value() ? !and_of(cs, !b, !c) : and_of(cs, b, c);
  }
  // maj is symmetric: move a constant argument to the front.
  if (b.is_constant()) return sha256_maj(cs, b, a, c);
  if (c.is_constant()) return sha256_maj(cs, c, a, b);
  // maj = a·(b + c − 2bc) + bc
  Boolean bc = and_of(cs, b, c);
  const bool value = (a.value() + b.value() + c.value()) >= 2;
  if (cs.values_only()) return values_only_bit(cs, value, 1);
  Variable maj = cs.alloc([&] { return fr_of(value); });
  const Fr two = Fr::from_u64(2);
  cs.enforce(a.lc(), b.lc() + c.lc() - two * bc.lc(), LC(maj) - bc.lc());
  return Boolean::from_constrained_variable(maj, value);
}

void enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (cs.values_only()) return cs.skip_constraints(1);
  cs.enforce(a.lc() - b.lc(), LC(Variable::one()), LC());
}

std::pair<Boolean, Boolean> conditional_swap(ConstraintSystem& cs, const Boolean& swap, const Boolean& x,
                                             const Boolean& y) {
  if (swap.is_constant()) return swap.value() ? std::pair{y, x} : std::pair{x, y};
  if (x.is_constant() && y.is_constant() && x.value() == y.value()) return {x, y};
  const bool first_value = swap.value() ? y.value() : x.value();
  const bool second_value = swap.value() ? x.value() : y.value();
  if (cs.values_only()) {
    const Boolean first = values_only_bit(cs, first_value, 1);
    return {first, values_only_bit(cs, second_value, 1)};
  }
  // first = x + swap·(y − x), second = y + swap·(x − y): each is x or y, so boolean.
  Variable first = cs.alloc([&] { return fr_of(first_value); });
  cs.enforce(swap.lc(), y.lc() - x.lc(), LC(first) - x.lc());
  Variable second = cs.alloc([&] { return fr_of(second_value); });
  cs.enforce(swap.lc(), x.lc() - y.lc(), LC(second) - y.lc());
  return {Boolean::from_constrained_variable(first, first_value),
          Boolean::from_constrained_variable(second, second_value)};
}

std::vector<bool> bytes_to_bits_be(std::span<const std::uint8_t> bytes) {
  std::vector<bool> bits;
  bits.reserve(8 * bytes.size());
  for (std::uint8_t byte : bytes) {
    for (int i = 7; i >= 0; --i) bits.push_back(((byte >> i) & 1) != 0);
  }
  return bits;
}

std::vector<std::uint8_t> bits_to_bytes_be(const std::vector<bool>& bits) {
  if (bits.size() % 8 != 0) throw std::invalid_argument("bits_to_bytes_be: not a whole number of bytes");
  std::vector<std::uint8_t> bytes(bits.size() / 8, 0);
  for (std::size_t i = 0; i < bits.size(); ++i) {
    if (bits[i]) bytes[i / 8] |= static_cast<std::uint8_t>(0x80 >> (i % 8));
  }
  return bytes;
}

std::vector<bool> values_of(std::span<const Boolean> bits) {
  std::vector<bool> v;
  v.reserve(bits.size());
  for (const Boolean& b : bits) v.push_back(b.value());
  return v;
}

std::vector<Boolean> alloc_bits(ConstraintSystem& cs, const std::vector<bool>& values) {
  std::vector<Boolean> bits;
  bits.reserve(values.size());
  for (bool v : values) bits.push_back(Boolean::alloc(cs, v));
  return bits;
}

std::vector<Boolean> constant_bits(const std::vector<bool>& values) {
  std::vector<Boolean> bits;
  bits.reserve(values.size());
  for (bool v : values) bits.push_back(Boolean::constant(v));
  return bits;
}

}  // namespace zkpipe::r1cs
