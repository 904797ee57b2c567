#include "r1cs/test_system.hpp"

#include <stdexcept>

namespace zkpipe::r1cs {

TestSystem::TestSystem() {
  alloc_input([] { return Fr::one(); });
}

Variable TestSystem::alloc(ValueFn value) {
  if (aux_.size() > Variable::kMaxIndex) throw std::length_error("TestSystem: too many aux variables");
  aux_.push_back(value());
  return Variable::aux(static_cast<std::uint32_t>(aux_.size() - 1));
}

Variable TestSystem::alloc_input(ValueFn value) {
  if (inputs_.size() > Variable::kMaxIndex) throw std::length_error("TestSystem: too many inputs");
  inputs_.push_back(value());
  return Variable::input(static_cast<std::uint32_t>(inputs_.size() - 1));
}

void TestSystem::enforce(const LC& a, const LC& b, const LC& c) {
  if (path_changed_) {
    std::string path;
    for (const std::string& s : scopes_) {
      if (!path.empty()) path += '/';
      path += s;
    }
    paths_.push_back(std::move(path));
    path_changed_ = false;
  }
  const auto terms = [](const LC& lc) { return std::vector<Term>(lc.terms().begin(), lc.terms().end()); };
  constraints_.push_back(Constraint{terms(a), terms(b), terms(c), paths_.size() - 1});
}

void TestSystem::push_scope(std::string_view label, std::size_t index) {
  std::string name(label);
  if (index != kNoIndex) {
    name += ' ';
    name += std::to_string(index);
  }
  scopes_.push_back(std::move(name));
  path_changed_ = true;
}

void TestSystem::pop_scope() {
  if (scopes_.empty()) throw std::logic_error("TestSystem: pop_scope without a matching push_scope");
  scopes_.pop_back();
  path_changed_ = true;
}

std::optional<std::string> TestSystem::which_is_unsatisfied() const {
  const Assignment z = assignment();
  const auto value = [&](const std::vector<Term>& terms) {
    return evaluate_terms(terms, [&](Variable v) -> const Fr& { return z[v]; });
  };
  for (std::size_t i = 0; i < constraints_.size(); ++i) {
    const Constraint& k = constraints_[i];
    if (value(k.a) * value(k.b) == value(k.c)) continue;
    const std::string& path = paths_[k.path];
    return (path.empty() ? "" : path + ": ") + "constraint " + std::to_string(i) + " not satisfied";
  }
  return std::nullopt;
}

}  // namespace zkpipe::r1cs
