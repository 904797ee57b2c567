#include "gadgets/num.hpp"

#include <stdexcept>

namespace zkpipe::r1cs {

AllocatedNum AllocatedNum::alloc(ConstraintSystem& cs, const Fr& value) {
  return AllocatedNum(cs.alloc([&] { return value; }), value);
}

AllocatedNum AllocatedNum::alloc_input(ConstraintSystem& cs, const Fr& value) {
  return AllocatedNum(cs.alloc_input([&] { return value; }), value);
}

Num pack_bits_le(std::span<const Boolean> bits) {
  if (bits.size() >= Fr::kBits) throw std::invalid_argument("pack_bits_le: more bits than fit in Fr");
  Num n{LC(), Fr::zero()};
  n.lc.reserve(bits.size() + 1);
  Fr constant = Fr::zero();
  Fr weight = Fr::one();
  for (const Boolean& b : bits) {
    b.add_to(n.lc, weight, constant);
    if (b.value()) n.value += weight;
    weight = weight.dbl();
  }
  if (!constant.is_zero()) n.lc.add(constant, Variable::one());
  return n;
}

AllocatedNum alloc_packed(ConstraintSystem& cs, std::span<const Boolean> bits_le) {
  return alloc_equal(cs, pack_bits_le(bits_le));
}

AllocatedNum inputize_packed(ConstraintSystem& cs, std::span<const Boolean> bits_le) {
  const Num packed = pack_bits_le(bits_le);
  AllocatedNum input = AllocatedNum::alloc_input(cs, packed.value);
  enforce_equal(cs, packed, Num::of(input));
  return input;
}

AllocatedNum alloc_equal(ConstraintSystem& cs, const Num& n) {
  AllocatedNum x = AllocatedNum::alloc(cs, n.value);
  cs.enforce(n.lc, LC(Variable::one()), x.lc());
  return x;
}

void enforce_equal(ConstraintSystem& cs, const Num& a, const Num& b) {
  cs.enforce(a.lc - b.lc, LC(Variable::one()), LC());
}

}  // namespace zkpipe::r1cs
