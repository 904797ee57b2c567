// Small circuits for Groth16 tests, written once over the constraint-system
// interface so that setup (RecordingSystem) and proving (ProvingAssignment) see
// the same constraints.
#pragma once

#include <vector>

#include "ff/fr.hpp"
#include "groth16/witness.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/recording_system.hpp"

namespace zkpipe::groth16::testing {

using ff::Fr;
using r1cs::ConstraintSystem;
using r1cs::LC;

// Public: y = x^3 + x + 5 and a public bit string; private: x, and a chain of
// products over the bits (so the witness has many 0/1 values like Filecoin's).
inline void cubic_with_bits(ConstraintSystem& cs, const Fr& x, const std::vector<bool>& bits) {
  Fr x2 = x * x;
  Fr x3 = x2 * x;
  Fr y = x3 + x + Fr::from_u64(5);
  auto vy = cs.alloc_input([&] { return y; });
  auto vx = cs.alloc([&] { return x; });
  auto vx2 = cs.alloc([&] { return x2; });
  auto vx3 = cs.alloc([&] { return x3; });
  cs.enforce(vx, vx, vx2);
  cs.enforce(vx2, vx, vx3);
  LC sum = LC(vx3);
  sum += LC(vx);
  sum += LC::constant(Fr::from_u64(5));
  cs.enforce(sum, LC(ConstraintSystem::one()), vy);

  Fr acc = Fr::one();
  auto vacc = ConstraintSystem::one();
  for (bool bit : bits) {
    Fr b = bit ? Fr::one() : Fr::zero();
    auto vin = cs.alloc_input([&] { return b; });
    auto vb = cs.alloc([&] { return b; });
    cs.enforce(vin, ConstraintSystem::one(), vb);
    LC one_minus = LC::constant(Fr::one());
    one_minus -= LC(vb);
    cs.enforce(vb, one_minus, LC());
    Fr next = acc * (b + Fr::one());
    auto vnext = cs.alloc([&] { return next; });
    LC b_plus_one(vb);
    b_plus_one += LC::constant(Fr::one());
    cs.enforce(vacc, b_plus_one, vnext);
    acc = next;
    vacc = vnext;
  }
}

inline std::vector<Fr> cubic_public_inputs(const Fr& x, const std::vector<bool>& bits) {
  std::vector<Fr> in{x * x * x + x + Fr::from_u64(5)};
  for (bool b : bits) in.push_back(b ? Fr::one() : Fr::zero());
  return in;
}

template <class Circuit>
r1cs::R1csMatrices record(Circuit circuit) {
  r1cs::RecordingSystem cs;
  circuit(cs);
  r1cs::enforce_input_constraints(cs);
  return std::move(cs).matrices();
}

template <class Circuit>
PartitionWitness synthesize(Circuit circuit) {
  r1cs::ProvingAssignment cs;
  circuit(cs);
  r1cs::enforce_input_constraints(cs);
  return PartitionWitness::from(std::move(cs));
}

}  // namespace zkpipe::groth16::testing
