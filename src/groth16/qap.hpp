// The quadratic arithmetic program of an R1CS at one point τ: for every variable i,
// u_i(τ), v_i(τ), w_i(τ), where u_i interpolates column i of A over the evaluation
// domain (row j sits at ω^j), likewise v for B and w for C. Setup needs nothing else
// from the circuit.
#pragma once

#include <vector>

#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "poly/evaluation_domain.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/recording_system.hpp"

namespace zkpipe::groth16 {

using ff::Fr;

// Indexed by the full assignment z = inputs ‖ aux.
struct QapAtPoint {
  std::vector<Fr> u;
  std::vector<Fr> v;
  std::vector<Fr> w;
};

// L_j(τ) for every j < N: the Lagrange basis of the domain at τ. Throws
// std::invalid_argument when τ lies in the domain (L is then a unit vector, which
// a seeded setup must never produce silently).
std::vector<Fr> lagrange_basis_at(const poly::EvaluationDomain& domain, const Fr& tau);

QapAtPoint evaluate_qap(const r1cs::R1csMatrices& m, const poly::EvaluationDomain& domain,
                        const Fr& tau);
// The same from the compiled form (8 bytes an entry instead of ~40): what setup
// reads at 2^27 constraints, where recorded matrices would not fit beside the key.
QapAtPoint evaluate_qap(const r1cs::CompiledR1cs& m, const poly::EvaluationDomain& domain, const Fr& tau);

// Which variables appear in A (aux only), in B (inputs and aux).
QueryDensity query_density(const r1cs::R1csMatrices& m);
QueryDensity query_density(const r1cs::CompiledR1cs& m);

}  // namespace zkpipe::groth16
