#include "gadgets/uint64.hpp"

#include "gadgets/num.hpp"

namespace zkpipe::r1cs {

UInt64 UInt64::constant(std::uint64_t value) {
  std::array<Boolean, 64> bits;
  for (unsigned i = 0; i < 64; ++i) bits[i] = Boolean::constant(((value >> i) & 1) != 0);
  return UInt64(bits, value);
}

UInt64 UInt64::alloc(ConstraintSystem& cs, std::uint64_t value) {
  std::array<Boolean, 64> bits;
  for (unsigned i = 0; i < 64; ++i) bits[i] = Boolean::alloc(cs, ((value >> i) & 1) != 0);
  return UInt64(bits, value);
}

std::vector<Boolean> UInt64::bits_be() const { return {bits_.rbegin(), bits_.rend()}; }

void UInt64::pack_into_input(ConstraintSystem& cs) const { pack_into_inputs(cs, bits_); }

}  // namespace zkpipe::r1cs
