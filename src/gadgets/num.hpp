// Field elements in a circuit: AllocatedNum is one variable with its value; Num is
// a linear combination with its value, for results that need no constraint of their
// own (sums, scalings, Poseidon's linear layer).
#pragma once

#include <span>

#include "gadgets/boolean.hpp"
#include "r1cs/constraint_system.hpp"

namespace zkpipe::r1cs {

class AllocatedNum {
 public:
  static AllocatedNum alloc(ConstraintSystem& cs, const Fr& value);
  static AllocatedNum alloc_input(ConstraintSystem& cs, const Fr& value);

  Variable var() const { return var_; }
  const Fr& value() const { return value_; }
  LC lc() const { return LC(var_); }

 private:
  AllocatedNum(Variable var, const Fr& value) : var_(var), value_(value) {}

  Variable var_;
  Fr value_;
};

struct Num {
  LC lc;
  Fr value;

  static Num constant(const Fr& c) { return Num{LC::constant(c), c}; }
  static Num of(const AllocatedNum& n) { return Num{n.lc(), n.value()}; }

  Num& operator+=(const Num& o) {
    lc += o.lc;
    value += o.value;
    return *this;
  }
  Num& operator*=(const Fr& s) {
    lc *= s;
    value *= s;
    return *this;
  }
};

// Σ 2^i·bits[i] (bits little-endian) as a Num; at most 254 bits so that it is an
// injective encoding into Fr.
Num pack_bits_le(std::span<const Boolean> bits);

// A new variable constrained to equal the packed bits.
AllocatedNum alloc_packed(ConstraintSystem& cs, std::span<const Boolean> bits_le);

// A new public input constrained to equal the packed bits.
AllocatedNum inputize_packed(ConstraintSystem& cs, std::span<const Boolean> bits_le);

// Allocates x with x = lc, so that a long combination becomes a single term.
AllocatedNum alloc_equal(ConstraintSystem& cs, const Num& n);

void enforce_equal(ConstraintSystem& cs, const Num& a, const Num& b);

}  // namespace zkpipe::r1cs
