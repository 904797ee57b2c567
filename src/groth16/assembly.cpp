#include "groth16/assembly.hpp"

#include "ec/msm/msm.hpp"
#include "ec/scalar_mul.hpp"
#include "groth16/query_scalars.hpp"

namespace zkpipe::groth16 {

void PendingG1Proof::blind(const G1MsmSums& sums) {
  const VerifyingKey& vk = key->vk;
  a = sums.a + vk.alpha_g1 + ec::mul_ct(vk.delta_g1, blinding.r);
  b_g1 = sums.b_g1 + vk.beta_g1 + ec::mul_ct(vk.delta_g1, blinding.s);
  c_part = sums.h + sums.l;
}

ec::Jacobian<ec::G2Curve> b_g2_msm(const Assignment& assignment, const ProvingKey& key) {
  return ec::msm<ec::G2Curve>(key.b_g2, b_query_scalars(assignment));
}

Proof finish_on_cpu(const PendingG1Proof& p) { return assemble(p, b_g2_msm(*p.assignment, *p.key)); }

Proof assemble(const PendingG1Proof& p, const ec::Jacobian<ec::G2Curve>& b_g2_sum) {
  const VerifyingKey& vk = p.key->vk;
  const ff::Fr& r = p.blinding.r;
  const ff::Fr& s = p.blinding.s;
  ec::Jacobian<ec::G2Curve> b_g2 = b_g2_sum + vk.beta_g2 + ec::mul_ct(vk.delta_g2, s);
  G1Point c = p.c_part + ec::mul_ct(p.a, s) + ec::mul_ct(p.b_g1, r) - ec::mul_ct(vk.delta_g1, r * s);
  return Proof{p.a.to_affine(), b_g2.to_affine(), c.to_affine()};
}

}  // namespace zkpipe::groth16
