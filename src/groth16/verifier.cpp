#include "groth16/verifier.hpp"

#include <sys/random.h>

#include <stdexcept>
#include <string>

#include "ec/msm/msm.hpp"
#include "ec/scalar_mul.hpp"
#include "groth16/key_validation.hpp"
#include "pairing/final_exponentiation.hpp"
#include "pairing/miller_loop.hpp"
#include "pairing/pairing.hpp"

namespace zkpipe::groth16 {

using ff::Fr;
using G1 = ec::Jacobian<ec::G1Curve>;

namespace {

// Runs before any member is built: a key that would let forged proofs verify never
// becomes a PreparedVerifyingKey, whichever reader it came through.
const VerifyingKey& checked(const VerifyingKey& vk, InsecureKey insecure) {
  if (auto problem = verifying_key_problem(vk, insecure)) throw std::invalid_argument("verifying key refused: " + *problem);
  return vk;
}

}  // namespace

PreparedVerifyingKey::PreparedVerifyingKey(const VerifyingKey& vk, InsecureKey insecure)
    : alpha_beta(pairing::pairing(checked(vk, insecure).alpha_g1, vk.beta_g2)),
      neg_gamma(-vk.gamma_g2),
      neg_delta(-vk.delta_g2),
      ic(vk.ic) {}

namespace {

G1 input_commitment(const PreparedVerifyingKey& pvk, std::span<const Fr> public_inputs) {
  if (public_inputs.size() + 1 != pvk.ic.size()) {
    throw std::invalid_argument("verify: " + std::to_string(public_inputs.size()) +
                                " public inputs given, the key expects " + std::to_string(pvk.ic.size() - 1));
  }
  G1 acc = G1::from_affine(pvk.ic[0]);
  if (!public_inputs.empty()) {
    acc += ec::msm<ec::G1Curve>(std::span(pvk.ic).subspan(1), public_inputs);
  }
  return acc;
}

Fr random_128_bit_scalar() {
  ff::Limbs<4> limbs{};
  if (getrandom(limbs.data(), 16, 0) != 16) throw std::runtime_error("getrandom failed");
  return *Fr::from_canonical(limbs);
}

}  // namespace

bool verify(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const Fr> public_inputs) {
  G1Affine ic = input_commitment(pvk, public_inputs).to_affine();
  pairing::G2Prepared b(proof.b);
  const pairing::PreparedPair terms[] = {{proof.a, &b}, {ic, &pvk.neg_gamma}, {proof.c, &pvk.neg_delta}};
  return pairing::final_exponentiation(pairing::miller_loop(terms)) == pvk.alpha_beta;
}

bool verify_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                  std::span<const std::vector<Fr>> public_inputs) {
  if (proofs.size() != public_inputs.size()) {
    throw std::invalid_argument("verify_batch: " + std::to_string(proofs.size()) + " proofs but " +
                                std::to_string(public_inputs.size()) + " public input sets");
  }
  if (proofs.empty()) return true;
  std::vector<pairing::G2Prepared> prepared_b;
  prepared_b.reserve(proofs.size());
  std::vector<pairing::PreparedPair> terms;
  G1 ic_sum = G1::identity();
  G1 c_sum = G1::identity();
  Fr z_sum = Fr::zero();
  for (std::size_t k = 0; k < proofs.size(); ++k) {
    Fr z = random_128_bit_scalar();
    z_sum += z;
    G1 ic = input_commitment(pvk, public_inputs[k]);
    ic_sum += ec::mul_vartime(ic, z);
    c_sum += ec::mul_vartime(proofs[k].c, z);
    prepared_b.emplace_back(proofs[k].b);
    terms.push_back({ec::mul_vartime(proofs[k].a, z).to_affine(), &prepared_b.back()});
  }
  terms.push_back({ic_sum.to_affine(), &pvk.neg_gamma});
  terms.push_back({c_sum.to_affine(), &pvk.neg_delta});
  return pairing::final_exponentiation(pairing::miller_loop(terms)) == pvk.alpha_beta.pow(z_sum.to_canonical());
}

}  // namespace zkpipe::groth16
