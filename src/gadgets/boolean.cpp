#include "gadgets/boolean.hpp"

#include <stdexcept>

namespace zkpipe::gadgets {

namespace {

ff::Fr fr_of(bool b) { return b ? ff::Fr::one() : ff::Fr::zero(); }

// The value of the variable behind a non-constant bit.
bool stored_value(const Boolean& b) { return b.value() != b.is_negated(); }

// A new bit holding `value`, with the one constraint `constrain(variable)` enforces.
// On a values-only system: the value, the count and a placeholder variable.
template <class Constrain>
Boolean new_bit(r1cs::ConstraintSystem& cs, bool value, const Constrain& constrain) {
  if (cs.values_only()) {
    cs.alloc_bit_values(value, 1);
    cs.skip_constraints(1);
    return Boolean::from_constrained_variable(r1cs::Variable(), value);
  }
  const r1cs::Variable v = cs.alloc([&] { return fr_of(value); });
  constrain(v);
  return Boolean::from_constrained_variable(v, value);
}

r1cs::LC one_minus(r1cs::Variable v) { return r1cs::LC::constant(ff::Fr::one()) - r1cs::LC(v); }

// c = a ⊕ b for the variables behind two bits: (a + a)·b = a + b − c.
Boolean xor_variables(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  return new_bit(cs, stored_value(a) != stored_value(b), [&](r1cs::Variable c) {
    cs.enforce(r1cs::LC(ff::Fr::from_u64(2), a.variable()), r1cs::LC(b.variable()), r1cs::LC(a.variable()) + r1cs::LC(b.variable()) - r1cs::LC(c));
  });
}

}  // namespace

Boolean Boolean::alloc(r1cs::ConstraintSystem& cs, bool value) {
  return new_bit(cs, value, [&](r1cs::Variable v) { cs.enforce(one_minus(v), r1cs::LC(v), r1cs::LC()); });
}

Boolean Boolean::alloc_conditionally(r1cs::ConstraintSystem& cs, bool value, const Boolean& must_be_false) {
  if (must_be_false.is_constant() || must_be_false.is_negated()) {
    throw std::invalid_argument("Boolean::alloc_conditionally: the condition must be an allocated bit");
  }
  return new_bit(cs, value, [&](r1cs::Variable v) {
    cs.enforce(one_minus(must_be_false.variable()) - r1cs::LC(v), r1cs::LC(v), r1cs::LC());
  });
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

r1cs::LC Boolean::lc() const {
  r1cs::LC lc;
  ff::Fr constant = ff::Fr::zero();
  add_to(lc, ff::Fr::one(), constant);
  if (!constant.is_zero()) lc.add(constant, r1cs::Variable::one());
  return lc;
}

void Boolean::add_to(r1cs::LC& lc, const ff::Fr& coeff, ff::Fr& constant) const {
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

Boolean xor_of(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant()) return a.value() ? !b : b;
  if (b.is_constant()) return b.value() ? !a : a;
  // a ⊕ ¬b = ¬(a ⊕ b) and ¬a ⊕ ¬b = a ⊕ b: always the xor of the two variables.
  const Boolean c = xor_variables(cs, a, b);
  return a.is_negated() != b.is_negated() ? !c : c;
}

Boolean and_of(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if ((a.is_constant() && !a.value()) || (b.is_constant() && !b.value())) return Boolean::constant(false);
  if (a.is_constant()) return b;
  if (b.is_constant()) return a;
  const bool value = a.value() && b.value();
  if (a.is_negated() && b.is_negated()) {
    return new_bit(cs, value, [&](r1cs::Variable c) {
      cs.enforce(one_minus(a.variable()), one_minus(b.variable()), r1cs::LC(c));
    });
  }
  if (a.is_negated() || b.is_negated()) {
    const Boolean& is = a.is_negated() ? b : a;
    const Boolean& not_ = a.is_negated() ? a : b;
    return new_bit(cs, value, [&](r1cs::Variable c) {
      cs.enforce(r1cs::LC(is.variable()), one_minus(not_.variable()), r1cs::LC(c));
    });
  }
  return new_bit(cs, value, [&](r1cs::Variable c) { cs.enforce(r1cs::LC(a.variable()), r1cs::LC(b.variable()), r1cs::LC(c)); });
}

Boolean or_of(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b) { return !and_of(cs, !a, !b); }

Boolean sha256_ch(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  const bool value = a.value() ? b.value() : c.value();
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(value);
  if (a.is_constant() && !a.value()) return c;
  if (b.is_constant() && !b.value()) return and_of(cs, !a, c);
  if (c.is_constant() && !c.value()) return and_of(cs, a, b);
  if (c.is_constant()) return !and_of(cs, a, !b);
  if (b.is_constant()) return !and_of(cs, !a, !c);
  // a constant true still takes the general form, as in bellperson.
  return new_bit(cs, value, [&](r1cs::Variable ch) {
    // (b − c)·a = ch − c
    cs.enforce(b.lc() - c.lc(), a.lc(), r1cs::LC(ch) - c.lc());
  });
}

Boolean sha256_maj(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
  const bool value = (a.value() + b.value() + c.value()) >= 2;
  if (a.is_constant() && b.is_constant() && c.is_constant()) return Boolean::constant(value);
  if (a.is_constant() && !a.value()) return and_of(cs, b, c);
  if (b.is_constant() && !b.value()) return and_of(cs, a, c);
  if (c.is_constant() && !c.value()) return and_of(cs, a, b);
  if (c.is_constant()) return !and_of(cs, !a, !b);
  if (b.is_constant()) return !and_of(cs, !a, !c);
  if (a.is_constant()) return !and_of(cs, !b, !c);
  // maj = a·(b + c − 2bc) + bc. The majority is allocated before b·c.
  if (cs.values_only()) {
    cs.alloc_bit_values(value, 1);
    and_of(cs, b, c);
    cs.skip_constraints(1);
    return Boolean::from_constrained_variable(r1cs::Variable(), value);
  }
  const r1cs::Variable maj = cs.alloc([&] { return fr_of(value); });
  const Boolean bc = and_of(cs, b, c);
  // (2bc − b − c)·a = bc − maj
  cs.enforce(ff::Fr::from_u64(2) * bc.lc() - b.lc() - c.lc(), a.lc(), bc.lc() - r1cs::LC(maj));
  return Boolean::from_constrained_variable(maj, value);
}

void enforce_equal(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b) {
  if (a.is_constant() && b.is_constant()) {
    if (a.value() != b.value()) throw std::invalid_argument("enforce_equal: two different constant bits");
    return;
  }
  if (cs.values_only()) return cs.skip_constraints(1);
  r1cs::LC difference;
  if ((a.is_constant() && a.value()) || (b.is_constant() && b.value())) {
    difference = r1cs::LC::constant(ff::Fr::one()) - (a.is_constant() ? b : a).lc();
  } else if (a.is_constant() || b.is_constant()) {
    difference = (a.is_constant() ? b : a).lc();
  } else {
    difference = a.lc() - b.lc();
  }
  cs.enforce(r1cs::LC(), r1cs::LC(), difference);
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

std::vector<Boolean> alloc_bits(r1cs::ConstraintSystem& cs, const std::vector<bool>& values) {
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

std::vector<Boolean> reverse_bit_numbering(std::span<const Boolean> bits) {
  std::vector<Boolean> padded(bits.begin(), bits.end());
  while (padded.size() % 8 != 0) padded.push_back(Boolean::constant(false));
  std::vector<Boolean> out;
  out.reserve(padded.size());
  for (std::size_t byte = 0; byte < padded.size(); byte += 8) {
    for (std::size_t i = 8; i-- > 0;) out.push_back(padded[byte + i]);
  }
  return out;
}

}  // namespace zkpipe::gadgets
