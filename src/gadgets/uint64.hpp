// A 64-bit word in a circuit, as 64 Booleans (least significant first): what
// Filecoin's stacked circuit uses for a challenged node's index
// (storage-proofs-core gadgets/uint64.rs). Only allocation, constants, bit views and
// exposing it as a public input: the circuit never computes with it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "gadgets/boolean.hpp"

namespace zkpipe::gadgets {

class UInt64 {
 public:
  static UInt64 constant(std::uint64_t value);
  // 64 new bits, each boolean-constrained.
  static UInt64 alloc(r1cs::ConstraintSystem& cs, std::uint64_t value);

  std::uint64_t value() const { return value_; }
  const std::array<Boolean, 64>& bits_le() const { return bits_; }
  std::vector<Boolean> bits_be() const;

  // One public input equal to the value (bellperson's pack_into_inputs of the bits).
  void pack_into_input(r1cs::ConstraintSystem& cs) const;

 private:
  UInt64(const std::array<Boolean, 64>& bits, std::uint64_t value) : bits_(bits), value_(value) {}

  std::array<Boolean, 64> bits_;
  std::uint64_t value_;
};

}  // namespace zkpipe::gadgets
