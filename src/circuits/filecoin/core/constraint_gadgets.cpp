#include "circuits/filecoin/core/constraint_gadgets.hpp"

namespace zkpipe::filecoin::core {

void enforce_equal(ConstraintSystem& cs, const AllocatedNum& a, const AllocatedNum& b) {
  if (cs.values_only()) return cs.skip_constraints(1);
  cs.enforce(a.lc(), r1cs::LC(r1cs::Variable::one()), b.lc());
}

AllocatedNum encode(ConstraintSystem& cs, const AllocatedNum& key, const AllocatedNum& data) {
  auto s = cs.scope("encode_add");
  return gadgets::add(cs, key, data);
}

}  // namespace zkpipe::filecoin::core
