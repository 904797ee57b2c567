// storage-proofs-core's small gadgets over allocated numbers (gadgets/constraint.rs,
// gadgets/encode.rs), with the reference's A, B and C:
//  - equal: a·1 = b;
//  - encode: the replica node key + data as a new variable, (key + data)·1 = sum.
#pragma once

#include "gadgets/num.hpp"

namespace zkpipe::filecoin::core {

using gadgets::AllocatedNum;
using r1cs::ConstraintSystem;

void enforce_equal(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b);

AllocatedNum encode(ConstraintSystem& cs, const AllocatedNum& key, const AllocatedNum& data);

}  // namespace zkpipe::filecoin::core
