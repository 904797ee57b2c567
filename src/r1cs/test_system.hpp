// Keeps every constraint and checks them on request, naming the first one that does
// not hold by its scope path, e.g.
//   "porep/challenge 3/sha256/round 17/maj: constraint 1234 not satisfied".
// For tests and for debugging circuits (bellperson's TestConstraintSystem): it
// stores all constraints and scope names, so aux values can be corrupted after
// synthesis and the system checked again.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace zkpipe::r1cs {

class TestSystem final : public ConstraintSystem {
 public:
  // Allocates the constant ONE as input 0.
  TestSystem();

  Variable alloc(ValueFn value) override;
  Variable alloc_input(ValueFn value) override;
  void enforce(const LC& a, const LC& b, const LC& c) override;
  void push_scope(std::string_view label, std::size_t index) override;
  void pop_scope() override;

  std::size_t num_inputs() const override { return inputs_.size(); }
  std::size_t num_aux() const override { return aux_.size(); }
  std::size_t num_constraints() const override { return constraints_.size(); }

  // A message naming the first unsatisfied constraint, or nullopt when all hold.
  std::optional<std::string> which_is_unsatisfied() const;
  bool is_satisfied() const { return !which_is_unsatisfied().has_value(); }

  // The scope path under which constraint i was enforced.
  const std::string& constraint_path(std::size_t i) const { return paths_[constraints_.at(i).path]; }

  const std::vector<Fr>& inputs() const { return inputs_; }
  const std::vector<Fr>& aux() const { return aux_; }
  Assignment assignment() const { return Assignment{inputs_, aux_}; }

  // Overwrite a value, so that tests can corrupt a valid witness.
  void set_aux(Variable v, const Fr& value) { aux_.at(v.index()) = value; }
  void set_input(Variable v, const Fr& value) { inputs_.at(v.index()) = value; }

 private:
  // The terms on the heap, as many as they are: a combination keeps up to four inline
  // (sized for building one, not for keeping millions).
  struct Constraint {
    std::vector<Term> a;
    std::vector<Term> b;
    std::vector<Term> c;
    std::size_t path;  // index into paths_
  };

  std::vector<Fr> inputs_;
  std::vector<Fr> aux_;
  std::vector<Constraint> constraints_;
  std::vector<std::string> scopes_;
  // Every distinct scope path seen by enforce, in order; the last one is current
  // unless a scope was pushed or popped since.
  std::vector<std::string> paths_;
  bool path_changed_ = true;
};

}  // namespace zkpipe::r1cs
