// The interface every circuit is written against (bellperson's ConstraintSystem in
// C++): allocate private and public variables, enforce a·b = c over linear
// combinations, and name nested scopes so that failures can say where they are.
//
// It is a virtual interface: one indirect call per allocation or constraint is small
// next to evaluating the constraint's terms, and it lets gadgets live in .cpp files.
//
// Gadgets always carry the native values of what they allocate, so a circuit is
// synthesized with a witness even when the system discards values (setup records the
// matrices from a synthesis with any witness of the right shape).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "r1cs/linear_combination.hpp"
#include "r1cs/value_fn.hpp"

namespace zkpipe::r1cs {

using LC = LinearCombination;

class ConstraintSystem {
 public:
  ConstraintSystem() = default;
  ConstraintSystem(const ConstraintSystem&) = delete;
  ConstraintSystem& operator=(const ConstraintSystem&) = delete;
  virtual ~ConstraintSystem() = default;

  static constexpr Variable one() { return Variable::one(); }

  virtual Variable alloc(ValueFn value) = 0;
  virtual Variable alloc_input(ValueFn value) = 0;
  virtual void enforce(const LC& a, const LC& b, const LC& c) = 0;

  // Scopes only name things; systems that report nothing ignore them.
  static constexpr std::size_t kNoIndex = static_cast<std::size_t>(-1);
  virtual void push_scope(std::string_view /*label*/, std::size_t /*index*/) {}
  virtual void pop_scope() {}

  virtual std::size_t num_inputs() const = 0;  // including the constant ONE
  virtual std::size_t num_aux() const = 0;
  virtual std::size_t num_constraints() const = 0;

  // A system that keeps only the assignment (WitnessSystem). Gadgets then take their
  // values-only paths: native word arithmetic that allocates exactly the variables,
  // in exactly the order, of the full path, builds no linear combination, and reports
  // its constraints by count (skip_constraints). Variables they hand out are then
  // placeholders that no constraint ever reads.
  bool values_only() const { return values_only_; }
  // Only on values-only systems: `count` constraints the gadget did not build.
  virtual void skip_constraints(std::size_t count);
  // `count` private bits, the low bits of `bits` least significant first, as that
  // many alloc calls would make them (without their booleanity constraints).
  virtual void alloc_bit_values(std::uint64_t bits, unsigned count);

  // Shape-only systems (compiling, counting) can record a part of a circuit once
  // and append copies of it: a circuit of many identical parts (a PoSt partition's
  // sectors) then costs one part's synthesis and a copy per part. new_segment() gives
  // an empty system for the part, which may read the variables allocated so far
  // (r1cs/segment.hpp), or null when this system records values and cannot repeat a
  // part; append_segment() appends `copies` copies of what it recorded, each over
  // variables of its own, as synthesizing the part that many times would.
  virtual std::unique_ptr<ConstraintSystem> new_segment() const { return nullptr; }
  virtual void append_segment(const ConstraintSystem& segment, std::size_t copies);

  class ScopeGuard {
   public:
    ScopeGuard(ConstraintSystem& cs, std::string_view label, std::size_t index) : cs_(cs) {
      cs_.push_scope(label, index);
    }
    ScopeGuard(const ScopeGuard&) = delete;
    ScopeGuard& operator=(const ScopeGuard&) = delete;
    ~ScopeGuard() { cs_.pop_scope(); }

   private:
    ConstraintSystem& cs_;
  };

  // `auto s = cs.scope("round", 17);` names everything until s goes out of scope.
  [[nodiscard]] ScopeGuard scope(std::string_view label, std::size_t index = kNoIndex) {
    return ScopeGuard(*this, label, index);
  }

 protected:
  struct ValuesOnly {};
  explicit ConstraintSystem(ValuesOnly) : values_only_(true) {}

 private:
  bool values_only_ = false;
};

// Groth16 (as in bellperson) appends one constraint input_i · 0 = 0 per public
// input, after the circuit's own constraints, so that the A query has an entry for
// every input and the input polynomials are linearly independent. Setup and prover
// both call this on their systems, so the matrices and the a/b/c vectors agree.
void enforce_input_constraints(ConstraintSystem& cs);

}  // namespace zkpipe::r1cs
