#include "r1cs/linear_combination.hpp"

#include <algorithm>

namespace zkpipe::r1cs {

LinearCombination& LinearCombination::operator+=(const LinearCombination& o) {
  terms_.insert(terms_.end(), o.terms_.begin(), o.terms_.end());
  return *this;
}

LinearCombination& LinearCombination::operator-=(const LinearCombination& o) {
  terms_.reserve(terms_.size() + o.terms_.size());
  for (const Term& t : o.terms_) terms_.push_back(Term{t.var, -t.coeff});
  return *this;
}

LinearCombination& LinearCombination::operator*=(const Fr& scalar) {
  for (Term& t : terms_) t.coeff *= scalar;
  return *this;
}

void LinearCombination::compact() {
  // On raw pointers: through small_vector's iterators the sort ran slower than on
  // std::vector's (the 32 GiB SnapDeals count, whose Poseidon folds compact often).
  std::sort(terms_.data(), terms_.data() + terms_.size(), [](const Term& a, const Term& b) { return a.var < b.var; });
  std::size_t out = 0;
  for (std::size_t i = 0; i < terms_.size();) {
    Term merged = terms_[i];
    for (++i; i < terms_.size() && terms_[i].var == merged.var; ++i) merged.coeff += terms_[i].coeff;
    if (!merged.coeff.is_zero()) terms_[out++] = merged;
  }
  terms_.resize(out);
}

Fr LinearCombination::evaluate(const Assignment& z) const {
  return evaluate_terms(terms(), [&](Variable v) -> const Fr& { return z[v]; });
}

LinearCombination operator+(LinearCombination a, const LinearCombination& b) { return a += b; }
LinearCombination operator-(LinearCombination a, const LinearCombination& b) { return a -= b; }
LinearCombination operator-(LinearCombination a) { return a *= -Fr::one(); }
LinearCombination operator*(const Fr& scalar, LinearCombination a) { return a *= scalar; }

}  // namespace zkpipe::r1cs
