#include "gadgets/num.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace zkpipe::gadgets {

namespace {

constexpr std::size_t kFrBits = ff::Fr::kBits;          // 255
constexpr std::size_t kFrCapacity = ff::Fr::kBits - 1;  // bits that always pack injectively

bool limb_bit(const ff::Limbs<ff::Fr::kLimbs>& limbs, std::size_t i) { return ((limbs[i / 64] >> (i % 64)) & 1) != 0; }

// 0·0 = Σ 2^i·bits[i] − x.
void enforce_unpacking(r1cs::ConstraintSystem& cs, std::span<const Boolean> bits_le, r1cs::Variable x) {
  if (cs.values_only()) return cs.skip_constraints(1);
  r1cs::LC lc;
  lc.reserve(bits_le.size() + 1);
  ff::Fr weight = ff::Fr::one();
  for (const Boolean& bit : bits_le) {
    lc.add(weight, bit.variable());
    weight = weight.dbl();
  }
  lc.add(-ff::Fr::one(), x);
  cs.enforce(r1cs::LC(), r1cs::LC(), lc);
}

}  // namespace

AllocatedNum AllocatedNum::alloc(r1cs::ConstraintSystem& cs, const ff::Fr& value) {
  return AllocatedNum(cs.alloc([&] { return value; }), value);
}

AllocatedNum AllocatedNum::alloc_input(r1cs::ConstraintSystem& cs, const ff::Fr& value) {
  return AllocatedNum(cs.alloc_input([&] { return value; }), value);
}

AllocatedNum AllocatedNum::inputize(r1cs::ConstraintSystem& cs) const {
  const AllocatedNum input = alloc_input(cs, value_);
  if (cs.values_only()) {
    cs.skip_constraints(1);
  } else {
    cs.enforce(input.lc(), r1cs::LC(r1cs::Variable::one()), lc());
  }
  return input;
}

std::vector<Boolean> AllocatedNum::to_bits_le(r1cs::ConstraintSystem& cs) const {
  const auto value = value_.to_canonical();
  std::vector<Boolean> bits;
  bits.reserve(kFrBits);
  for (std::size_t i = 0; i < kFrBits; ++i) bits.push_back(Boolean::alloc(cs, limb_bit(value, i)));
  enforce_unpacking(cs, bits, var_);
  return bits;
}

std::vector<Boolean> AllocatedNum::to_bits_le_strict(r1cs::ConstraintSystem& cs) const {
  const auto value = value_.to_canonical();
  ff::Limbs<ff::Fr::kLimbs> r_minus_1 = ff::Fr::kModulus;
  r_minus_1[0] -= 1;  // r is odd
  // From the most significant bit down: a bit at a one of r − 1 is free; a bit at
  // a zero must be 0 when every bit at the ones above it (since the last zero, and
  // all runs before) equals r − 1's, i.e. when the AND of those bits is 1.
  std::vector<Boolean> bits_be;
  bits_be.reserve(kFrBits);
  std::vector<Boolean> current_run;
  std::optional<Boolean> last_run;
  for (std::size_t i = kFrBits; i-- > 0;) {
    const bool bit = limb_bit(value, i);
    if (limb_bit(r_minus_1, i)) {
      bits_be.push_back(Boolean::alloc(cs, bit));
      current_run.push_back(bits_be.back());
      continue;
    }
    if (!current_run.empty()) {
      if (last_run) current_run.push_back(*last_run);
      Boolean run = current_run.front();
      for (std::size_t k = 1; k < current_run.size(); ++k) run = and_of(cs, run, current_run[k]);
      last_run = run;
      current_run.clear();
    }
    if (!last_run) throw std::logic_error("to_bits_le_strict: r − 1 starts with a zero bit");
    bits_be.push_back(Boolean::alloc_conditionally(cs, bit, *last_run));
  }
  std::vector<Boolean> bits(bits_be.rbegin(), bits_be.rend());
  enforce_unpacking(cs, bits, var_);
  return bits;
}

AllocatedNum add(r1cs::ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b) {
  const AllocatedNum sum = AllocatedNum::alloc(cs, a.value() + b.value());
  if (cs.values_only()) {
    cs.skip_constraints(1);
  } else {
    cs.enforce(a.lc() + b.lc(), r1cs::LC(r1cs::Variable::one()), sum.lc());
  }
  return sum;
}

Num pack_bits_le(std::span<const Boolean> bits) {
  if (bits.size() > kFrCapacity) throw std::invalid_argument("pack_bits_le: more bits than fit in ff::Fr");
  Num n{r1cs::LC(), ff::Fr::zero()};
  n.lc.reserve(bits.size() + 1);
  ff::Fr constant = ff::Fr::zero();
  ff::Fr weight = ff::Fr::one();
  for (const Boolean& b : bits) {
    b.add_to(n.lc, weight, constant);
    if (b.value()) n.value += weight;
    weight = weight.dbl();
  }
  if (!constant.is_zero()) n.lc.add(constant, r1cs::Variable::one());
  return n;
}

AllocatedNum alloc_packed(r1cs::ConstraintSystem& cs, std::span<const Boolean> bits_le) {
  return alloc_equal(cs, pack_bits_le(bits_le));
}

AllocatedNum inputize_packed(r1cs::ConstraintSystem& cs, std::span<const Boolean> bits_le) {
  const Num packed = pack_bits_le(bits_le);
  const AllocatedNum input = AllocatedNum::alloc_input(cs, packed.value);
  cs.enforce(packed.lc, r1cs::LC(r1cs::Variable::one()), input.lc());
  return input;
}

void pack_into_inputs(r1cs::ConstraintSystem& cs, std::span<const Boolean> bits_le) {
  for (std::size_t at = 0; at < bits_le.size(); at += kFrCapacity) {
    inputize_packed(cs, bits_le.subspan(at, std::min(kFrCapacity, bits_le.size() - at)));
  }
}

std::vector<ff::Fr> compute_multipacking(const std::vector<bool>& bits_le) {
  std::vector<ff::Fr> inputs;
  for (std::size_t at = 0; at < bits_le.size(); at += kFrCapacity) {
    ff::Fr packed = ff::Fr::zero();
    ff::Fr weight = ff::Fr::one();
    for (std::size_t i = at; i < std::min(at + kFrCapacity, bits_le.size()); ++i) {
      if (bits_le[i]) packed += weight;
      weight = weight.dbl();
    }
    inputs.push_back(packed);
  }
  return inputs;
}

AllocatedNum alloc_equal(r1cs::ConstraintSystem& cs, const Num& n) {
  AllocatedNum x = AllocatedNum::alloc(cs, n.value);
  cs.enforce(n.lc, r1cs::LC(r1cs::Variable::one()), x.lc());
  return x;
}

void enforce_equal(r1cs::ConstraintSystem& cs, const Num& a, const Num& b) {
  cs.enforce(a.lc - b.lc, r1cs::LC(r1cs::Variable::one()), r1cs::LC());
}

}  // namespace zkpipe::gadgets
