#include "gadgets/uint64.hpp"

#include "gadgets/num.hpp"

namespace zkpipe::gadgets {

UInt64 UInt64::constant(std::uint64_t value) {
  std::array<Boolean, 64> bits;
  for (unsigned i = 0; i < 64; ++i) bits[i] = Boolean::constant(((value >> i) & 1) != 0);
  return UInt64(bits, value);
}

UInt64 UInt64::alloc(r1cs::ConstraintSystem& cs, std::uint64_t value) {
  std::array<Boolean, 64> bits;
  for (unsigned i = 0; i < 64; ++i) bits[i] = Boolean::alloc(cs, ((value >> i) & 1) != 0);
  return UInt64(bits, value);
}

std::vector<Boolean> UInt64::bits_be() const { return {bits_.rbegin(), bits_.rend()}; }

void UInt64::pack_into_input(r1cs::ConstraintSystem& cs) const { pack_into_inputs(cs, bits_); }

}  // namespace zkpipe::gadgets
