// Batches equalities of small integers into few constraints, as bellperson's
// MultiEq: each lhs_i = rhs_i whose sides are below 2^bits_i is shifted by the bits
// already used and added to one pending lhs·1 = rhs, so that a single constraint
// checks as many as fit in fewer than Fr's capacity bits (254: below that, neither
// side's sum wraps around r). UInt32::addmany reports its packing equalities here, which is why a
// SHA-256 compression costs one constraint per ~7 additions instead of one each.
//
// The pending constraint is enforced when the next equality would not fit, on
// flush(), and on destruction (bellperson enforces it when its MultiEq is dropped),
// so its place in the constraint order is bellperson's too.
#pragma once

#include <cstddef>

#include "r1cs/constraint_system.hpp"

namespace zkpipe::gadgets {

class MultiEq {
 public:
  // Fr's capacity, floor(log2 r) = 254; a batch holds fewer bits than this.
  static constexpr std::size_t kCapacityBits = ff::Fr::kBits - 1;

  explicit MultiEq(r1cs::ConstraintSystem& cs) : cs_(cs) {}
  MultiEq(const MultiEq&) = delete;
  MultiEq& operator=(const MultiEq&) = delete;
  ~MultiEq() { flush(); }

  r1cs::ConstraintSystem& cs() { return cs_; }

  // Adds lhs = rhs, both below 2^num_bits. On a values-only system lhs and rhs are
  // not read (callers may pass empty combinations).
  void enforce_equal(std::size_t num_bits, const r1cs::LC& lhs, const r1cs::LC& rhs);

  // Enforces the pending batch, if any.
  void flush();

 private:
  r1cs::ConstraintSystem& cs_;
  std::size_t bits_used_ = 0;
  r1cs::LC lhs_;
  r1cs::LC rhs_;
};

}  // namespace zkpipe::gadgets
