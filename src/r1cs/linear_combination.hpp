// Sparse linear combinations Σ coeffᵢ·varᵢ over Fr. The constant term is a
// coefficient on Variable::one(). Terms may repeat a variable; compact() merges them
// (needed where combinations are folded repeatedly, as in Poseidon's partial rounds).
#pragma once

#include <span>

#include <boost/container/small_vector.hpp>

#include "ff/fr.hpp"
#include "r1cs/variable.hpp"

namespace zkpipe::r1cs {

using ff::Fr;

struct Term {
  Variable var;
  Fr coeff;
};

// The values of the full assignment z = inputs ‖ aux, as two spans.
struct Assignment {
  std::span<const Fr> inputs;
  std::span<const Fr> aux;

  const Fr& operator[](Variable v) const { return v.is_aux() ? aux[v.index()] : inputs[v.index()]; }
};

class LinearCombination {
 public:
  LinearCombination() = default;
  LinearCombination(Variable v) { add(Fr::one(), v); }  // NOLINT: a variable is an LC
  LinearCombination(const Fr& coeff, Variable v) { add(coeff, v); }

  static LinearCombination constant(const Fr& c) { return LinearCombination(c, Variable::one()); }

  std::span<const Term> terms() const { return {terms_.data(), terms_.size()}; }
  std::size_t size() const { return terms_.size(); }
  bool empty() const { return terms_.empty(); }
  void reserve(std::size_t n) { terms_.reserve(n); }

  LinearCombination& add(const Fr& coeff, Variable v) {
    terms_.push_back(Term{v, coeff});
    return *this;
  }

  LinearCombination& operator+=(const LinearCombination& o);
  LinearCombination& operator-=(const LinearCombination& o);
  LinearCombination& operator*=(const Fr& scalar);

  // Sorts by variable, merges repeated variables and drops zero coefficients.
  void compact();

  Fr evaluate(const Assignment& z) const;

 private:
  // Most combinations a gadget builds (a variable, a bit and its negation, a + b − 2c)
  // have at most four terms: held inline, they cost no allocation. Synthesis builds
  // and drops millions of them (a 2 KiB PoRep partition: 2.7 M constraints); on the
  // heap they were about a third of its time.
  boost::container::small_vector<Term, 4> terms_;
};

LinearCombination operator+(LinearCombination a, const LinearCombination& b);
LinearCombination operator-(LinearCombination a, const LinearCombination& b);
LinearCombination operator-(LinearCombination a);
LinearCombination operator*(const Fr& scalar, LinearCombination a);

// Σ coeff·value, skipping the multiplication for the (very common) coefficient 1.
template <class ValueOf>
Fr evaluate_terms(std::span<const Term> terms, ValueOf&& value_of) {
  Fr acc = Fr::zero();
  for (const Term& t : terms) {
    const Fr& v = value_of(t.var);
    acc += t.coeff.is_one() ? v : t.coeff * v;
  }
  return acc;
}

}  // namespace zkpipe::r1cs
