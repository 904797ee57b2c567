// The two layouts of the Groth16 H query in use, and the evaluation domain each one
// makes the prover work on. Both give Σ h_j·H_j = [h(τ)·Z(τ)/δ]₁; they differ in
// the basis, hence in which scalars the prover feeds the H MSM.
#pragma once

#include <cstddef>
#include <cstdint>

#include "poly/evaluation_domain.hpp"

namespace zkpipe::groth16 {

enum class HQuery : std::uint32_t {
  // bellman, bellperson and zkpipe's setup: τ^j·Z(τ)/δ for j < N − 1 on the domain
  // with ω from 7 and coset shift 7. Scalars: h's coefficients, found by dividing
  // a·b − c by Z on the coset and interpolating back.
  kMonomial = 0,
  // snarkjs: L_{2j+1}(τ)/δ for j < N, the odd half of the Lagrange basis of the
  // 2N-th roots (ω from 5). Scalars: a·b − c evaluated on the coset ω_2N·H, with no
  // division (Z = −2 there, folded into the points) and no interpolation.
  kSnarkjsOddCoset = 1,
};

// The number of H points a key of this layout holds on a domain of N points.
constexpr std::size_t h_query_size(HQuery query, std::size_t domain_size) {
  return query == HQuery::kMonomial ? domain_size - 1 : domain_size;
}

// The domain of N points the prover computes the H scalars on.
poly::EvaluationDomain h_query_domain(HQuery query, std::size_t domain_size);

// snarkjs's (ffjavascript's) choice of non-residue, from which its roots of unity come.
inline constexpr std::uint64_t kSnarkjsRootGenerator = 5;

}  // namespace zkpipe::groth16
