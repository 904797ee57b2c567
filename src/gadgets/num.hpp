// Field elements in a circuit: AllocatedNum is one variable with its value; Num is
// a linear combination with its value, for results that need no constraint of their
// own (sums, scalings, Poseidon's linear layer).
//
// The gadgets with a bellperson counterpart (bellpepper-core gadgets/num.rs,
// bellperson gadgets/multipack.rs) build the same variables and constraints, in the
// same order and with the same A, B and C.
#pragma once

#include <span>
#include <vector>

#include "gadgets/boolean.hpp"
#include "r1cs/constraint_system.hpp"

namespace zkpipe::gadgets {

class AllocatedNum {
 public:
  static AllocatedNum alloc(r1cs::ConstraintSystem& cs, const ff::Fr& value);
  static AllocatedNum alloc_input(r1cs::ConstraintSystem& cs, const ff::Fr& value);

  r1cs::Variable var() const { return var_; }
  const ff::Fr& value() const { return value_; }
  r1cs::LC lc() const { return r1cs::LC(var_); }

  // A new public input equal to this: input·1 = this (one constraint).
  AllocatedNum inputize(r1cs::ConstraintSystem& cs) const;

  // The value's 255 bits, least significant first, each boolean-constrained, and
  // 0·0 = Σ 2^i·bit_i − this: 256 constraints. Not strict: a witness may use the
  // bits of value + r instead (bellperson's to_bits_le).
  std::vector<Boolean> to_bits_le(r1cs::ConstraintSystem& cs) const;
  // As to_bits_le, but the bits must also encode a number below r: each bit at a
  // zero of r − 1 is allocated conditionally on the run of ones above it.
  std::vector<Boolean> to_bits_le_strict(r1cs::ConstraintSystem& cs) const;

 private:
  AllocatedNum(r1cs::Variable var, const ff::Fr& value) : var_(var), value_(value) {}

  r1cs::Variable var_;
  ff::Fr value_;
};

// a + b as a new variable: (a + b)·1 = sum (Filecoin's encode is this, with the key
// and the data as a and b).
AllocatedNum add(r1cs::ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b);

struct Num {
  r1cs::LC lc;
  ff::Fr value;

  static Num constant(const ff::Fr& c) { return Num{r1cs::LC::constant(c), c}; }
  static Num of(const AllocatedNum& n) { return Num{n.lc(), n.value()}; }

  Num& operator+=(const Num& o) {
    lc += o.lc;
    value += o.value;
    return *this;
  }
  Num& operator*=(const ff::Fr& s) {
    lc *= s;
    value *= s;
    return *this;
  }
};

// Σ 2^i·bits[i] (bits little-endian) as a Num; at most 254 bits so that it is an
// injective encoding into Fr.
Num pack_bits_le(std::span<const Boolean> bits);

// A new variable constrained to equal the packed bits, packed·1 = x (bellperson's
// multipack::pack_bits).
AllocatedNum alloc_packed(r1cs::ConstraintSystem& cs, std::span<const Boolean> bits_le);

// A new public input constrained to equal the packed bits, packed·1 = input.
AllocatedNum inputize_packed(r1cs::ConstraintSystem& cs, std::span<const Boolean> bits_le);

// The bits as public inputs, 254 to an input (bellperson's multipack::pack_into_inputs).
void pack_into_inputs(r1cs::ConstraintSystem& cs, std::span<const Boolean> bits_le);
// The inputs pack_into_inputs makes of these bit values (multipack::compute_multipacking).
std::vector<ff::Fr> compute_multipacking(const std::vector<bool>& bits_le);

// Allocates x with x = lc, so that a long combination becomes a single term.
AllocatedNum alloc_equal(r1cs::ConstraintSystem& cs, const Num& n);

void enforce_equal(r1cs::ConstraintSystem& cs, const Num& a, const Num& b);

}  // namespace zkpipe::gadgets
