// Poseidon in a circuit. Each S-box is three constraints (x², x⁴, x⁵); the linear
// layers are free: cells stay linear combinations, merged after each round so they
// stay short through the partial rounds. 3·(t·R_F + R_P) constraints in all.
#pragma once

#include <span>
#include <vector>

#include "gadgets/num.hpp"
#include "hash/poseidon_params.hpp"

namespace zkpipe::gadgets::poseidon {

std::vector<Num> permute(r1cs::ConstraintSystem& cs, const hash::poseidon::Params& p, std::vector<Num> state);

Num hash(r1cs::ConstraintSystem& cs, const hash::poseidon::Params& p, std::span<const Num> inputs);

}  // namespace zkpipe::gadgets::poseidon
