// A bit in a circuit: a constant, an allocated variable constrained to {0, 1}, or
// the negation of one. Negation and operations on constants are free (no
// constraint), which SHA-256's constant IV and padding take advantage of.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace zkpipe::r1cs {

class Boolean {
 public:
  // The constant false.
  Boolean() = default;

  static Boolean constant(bool value) { return Boolean(Kind::kConstant, Variable(), value); }

  // A new private bit with the booleanity constraint (1 − b)·b = 0.
  static Boolean alloc(ConstraintSystem& cs, bool value);

  // Wraps a variable that is already known to be 0 or 1 by other constraints.
  static Boolean from_constrained_variable(Variable v, bool value) { return Boolean(Kind::kIs, v, value); }

  bool value() const { return value_; }
  bool is_constant() const { return kind_ == Kind::kConstant; }

  Boolean operator!() const;

  // This bit as a linear combination (0 or 1 valued).
  LC lc() const;
  // lc += coeff·this, folding a constant part into `constant` instead of adding a
  // term, so that sums of many bits carry one ONE term.
  void add_to(LC& lc, const Fr& coeff, Fr& constant) const;

 private:
  enum class Kind : std::uint8_t { kConstant, kIs, kNot };

  Boolean(Kind kind, Variable var, bool value) : var_(var), value_(value), kind_(kind) {}

  Variable var_;
  bool value_ = false;
  Kind kind_ = Kind::kConstant;
};

Boolean xor_of(ConstraintSystem& cs, const Boolean& a, const Boolean& b);
Boolean and_of(ConstraintSystem& cs, const Boolean& a, const Boolean& b);

// SHA-256's choose (a ? b : c) and majority, one and two constraints per bit.
Boolean sha256_ch(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);
Boolean sha256_maj(ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);

void enforce_equal(ConstraintSystem& cs, const Boolean& a, const Boolean& b);

// (x, y) when swap is false, (y, x) when it is true; two constraints unless the
// inputs are constants.
std::pair<Boolean, Boolean> conditional_swap(ConstraintSystem& cs, const Boolean& swap, const Boolean& x,
                                             const Boolean& y);

// Bytes as bits, most significant bit of each byte first (SHA-256's order).
std::vector<bool> bytes_to_bits_be(std::span<const std::uint8_t> bytes);
std::vector<std::uint8_t> bits_to_bytes_be(const std::vector<bool>& bits);
std::vector<bool> values_of(std::span<const Boolean> bits);

std::vector<Boolean> alloc_bits(ConstraintSystem& cs, const std::vector<bool>& values);
std::vector<Boolean> constant_bits(const std::vector<bool>& values);

}  // namespace zkpipe::r1cs
