// Groth16 keys over BLS12-381, laid out like bellperson's Parameters: the proving
// key's queries are density-pruned, holding a point only for the variables that can
// appear in the corresponding matrix.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "ec/affine.hpp"
#include "ff/fp12.hpp"
#include "groth16/h_query.hpp"
#include "groth16/point_array.hpp"
#include "pairing/g2_prepared.hpp"

namespace zkpipe::groth16 {

using G1Affine = ec::Affine<ec::G1Curve>;
using G2Affine = ec::Affine<ec::G2Curve>;

struct VerifyingKey {
  G1Affine alpha_g1;
  G1Affine beta_g1;
  G2Affine beta_g2;
  G2Affine gamma_g2;
  G1Affine delta_g1;
  G2Affine delta_g2;
  // (β·u_i(τ) + α·v_i(τ) + w_i(τ)) / γ for every public input i, ONE first.
  std::vector<G1Affine> ic;

  std::size_t num_inputs() const { return ic.size(); }
  bool operator==(const VerifyingKey&) const = default;
};

// Which variables each query covers. Inputs always appear in A (the input
// constraints guarantee it), so only the aux part of A is recorded.
struct QueryDensity {
  std::vector<bool> a_aux;
  std::vector<bool> b_input;
  std::vector<bool> b_aux;

  bool operator==(const QueryDensity&) const = default;
};

struct ProvingKey {
  VerifyingKey vk;
  QueryDensity density;
  // u_i(τ)·G1 for all inputs, then for aux with a_aux set.
  PointArray<G1Affine> a;
  // v_i(τ)·G1 and v_i(τ)·G2 for inputs with b_input set, then aux with b_aux set.
  PointArray<G1Affine> b_g1;
  PointArray<G2Affine> b_g2;
  // The h polynomial's basis, laid out as h_query says: τ^j·Z(τ)/δ for j < N − 1
  // (kMonomial) or snarkjs's odd-coset Lagrange points, N of them.
  PointArray<G1Affine> h;
  HQuery h_query = HQuery::kMonomial;
  // (β·u_i(τ) + α·v_i(τ) + w_i(τ)) / δ for every aux variable.
  PointArray<G1Affine> l;

  std::size_t num_inputs() const { return vk.num_inputs(); }
  std::size_t num_aux() const { return l.size(); }
  // The evaluation domain's size N (H has N − 1 or N points, by h_query).
  std::size_t domain_size() const { return h_query == HQuery::kMonomial ? h.size() + 1 : h.size(); }
  bool operator==(const ProvingKey&) const = default;
};

// Whether a verifying key whose points make the pairing equation trivial (γ = ±δ and
// the others key_validation.hpp lists) may be used: only tests that need such a key on
// purpose pass kAllow (the CLI's --allow-insecure-key).
enum class InsecureKey { kRefuse, kAllow };

// The verifying key with its pairing-side work done once: e(α, β) and the
// negated, line-precomputed γ and δ.
struct PreparedVerifyingKey {
  // Throws std::invalid_argument for a key that verifying_key_problem refuses.
  explicit PreparedVerifyingKey(const VerifyingKey& vk, InsecureKey insecure = InsecureKey::kRefuse);

  ff::Fp12 alpha_beta;
  pairing::G2Prepared neg_gamma;
  pairing::G2Prepared neg_delta;
  std::vector<G1Affine> ic;
};

}  // namespace zkpipe::groth16
