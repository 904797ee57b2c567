// A bit in a circuit: a constant, an allocated variable constrained to {0, 1}, or
// the negation of one. Negation and operations on constants are free (no
// constraint), which SHA-256's constant IV and padding take advantage of.
//
// The operations are bellperson's (bellpepper-core gadgets/boolean.rs) case for
// case: the same variables in the same order, the same constraints with the same
// A, B and C, so that circuits built from them have Filecoin's exact shape. Where a
// case could be folded further (e.g. ch with a constant true selector) bellperson
// does not, and neither do we.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace zkpipe::gadgets {

class Boolean {
 public:
  // The constant false.
  Boolean() = default;

  static Boolean constant(bool value) { return Boolean(Kind::kConstant, r1cs::Variable(), value); }

  // A new private bit with the booleanity constraint (1 − b)·b = 0.
  static Boolean alloc(r1cs::ConstraintSystem& cs, bool value);
  // A new private bit that must be 0 when `must_be_false` (an allocated bit, not
  // negated) is 1: (1 − must_be_false − b)·b = 0.
  static Boolean alloc_conditionally(r1cs::ConstraintSystem& cs, bool value, const Boolean& must_be_false);

  // Wraps a variable that is already known to be 0 or 1 by other constraints.
  static Boolean from_constrained_variable(r1cs::Variable v, bool value) { return Boolean(Kind::kIs, v, value); }

  bool value() const { return value_; }
  bool is_constant() const { return kind_ == Kind::kConstant; }
  bool is_negated() const { return kind_ == Kind::kNot; }
  // The variable behind a non-constant bit (holding value() or, negated, its complement).
  r1cs::Variable variable() const { return var_; }

  Boolean operator!() const;

  // This bit as a linear combination (0 or 1 valued): a constant true is ONE, a
  // negated bit ONE − variable.
  r1cs::LC lc() const;
  // lc += coeff·this, folding a constant part into `constant` instead of adding a
  // term, so that sums of many bits carry one ONE term.
  void add_to(r1cs::LC& lc, const ff::Fr& coeff, ff::Fr& constant) const;

 private:
  enum class Kind : std::uint8_t { kConstant, kIs, kNot };

  Boolean(Kind kind, r1cs::Variable var, bool value) : var_(var), value_(value), kind_(kind) {}

  r1cs::Variable var_;
  bool value_ = false;
  Kind kind_ = Kind::kConstant;
};

Boolean xor_of(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b);
// One constraint, of bellperson's three forms: a·b, a·(1 − b) ("and not"), (1 − a)·(1 − b) ("nor").
Boolean and_of(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b);
Boolean or_of(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b);

// SHA-256's choose (a ? b : c) and majority: one and two constraints when no
// argument is constant, fewer (often none) otherwise.
Boolean sha256_ch(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);
Boolean sha256_maj(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b, const Boolean& c);

// 0·0 = a − b (one constraint; none for two constants, which throw
// std::invalid_argument when they differ: the circuit could never be satisfied).
void enforce_equal(r1cs::ConstraintSystem& cs, const Boolean& a, const Boolean& b);

// Bytes as bits, most significant bit of each byte first (SHA-256's order).
std::vector<bool> bytes_to_bits_be(std::span<const std::uint8_t> bytes);
std::vector<std::uint8_t> bits_to_bytes_be(const std::vector<bool>& bits);
std::vector<bool> values_of(std::span<const Boolean> bits);

std::vector<Boolean> alloc_bits(r1cs::ConstraintSystem& cs, const std::vector<bool>& values);
std::vector<Boolean> constant_bits(const std::vector<bool>& values);

// Reverses the bit order within each byte, after padding to whole bytes with
// constant zeros: turns SHA-256's most-significant-first bits into the
// least-significant-first order Fr packing reads, and back (storage-proofs-core's
// util::reverse_bit_numbering).
std::vector<Boolean> reverse_bit_numbering(std::span<const Boolean> bits);

}  // namespace zkpipe::gadgets
