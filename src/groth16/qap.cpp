#include "groth16/qap.hpp"

#include <stdexcept>

namespace zkpipe::groth16 {

std::vector<Fr> lagrange_basis_at(const poly::EvaluationDomain& domain, const Fr& tau) {
  const std::size_t n = domain.size();
  // L_j(τ) = Z(τ)·ω^j / (N·(τ − ω^j)); the denominators are inverted in one batch.
  std::vector<Fr> omega_pow(n);
  std::vector<Fr> denominators(n);
  Fr w = Fr::one();
  Fr prefix = Fr::one();
  for (std::size_t j = 0; j < n; ++j) {
    omega_pow[j] = w;
    Fr d = tau - w;
    if (d.is_zero()) throw std::invalid_argument("setup: tau lies in the evaluation domain");
    denominators[j] = prefix;
    prefix *= d;
    w *= domain.omega();
  }
  Fr inv = prefix.inverse();
  const Fr scale = domain.vanishing_at(tau) * domain.size_inv();
  std::vector<Fr> basis(n);
  for (std::size_t j = n; j-- > 0;) {
    Fr d = tau - omega_pow[j];
    basis[j] = inv * denominators[j] * omega_pow[j] * scale;
    inv *= d;
  }
  return basis;
}

namespace {

void accumulate_columns(const r1cs::CsrMatrix& matrix, const std::vector<Fr>& basis,
                        std::size_t num_inputs, std::vector<Fr>& out) {
  for (std::size_t row = 0; row < matrix.rows(); ++row) {
    auto columns = matrix.row_columns(row);
    auto coeffs = matrix.row_coeffs(row);
    for (std::size_t k = 0; k < columns.size(); ++k) {
      std::size_t col = columns[k].is_input() ? columns[k].index() : num_inputs + columns[k].index();
      out[col] += coeffs[k] * basis[row];
    }
  }
}

void mark_columns(const r1cs::CsrMatrix& matrix, std::vector<bool>& inputs, std::vector<bool>& aux) {
  for (r1cs::Variable v : matrix.columns()) {
    if (v.is_input()) {
      inputs[v.index()] = true;
    } else {
      aux[v.index()] = true;
    }
  }
}

}  // namespace

QapAtPoint evaluate_qap(const r1cs::R1csMatrices& m, const poly::EvaluationDomain& domain,
                        const Fr& tau) {
  if (m.num_constraints() > domain.size()) {
    throw std::invalid_argument("setup: domain smaller than the number of constraints");
  }
  std::vector<Fr> basis = lagrange_basis_at(domain, tau);
  const std::size_t vars = m.num_inputs + m.num_aux;
  QapAtPoint q{std::vector<Fr>(vars), std::vector<Fr>(vars), std::vector<Fr>(vars)};
  accumulate_columns(m.a, basis, m.num_inputs, q.u);
  accumulate_columns(m.b, basis, m.num_inputs, q.v);
  accumulate_columns(m.c, basis, m.num_inputs, q.w);
  return q;
}

QueryDensity query_density(const r1cs::R1csMatrices& m) {
  QueryDensity d;
  std::vector<bool> a_inputs(m.num_inputs);
  d.a_aux.assign(m.num_aux, false);
  d.b_input.assign(m.num_inputs, false);
  d.b_aux.assign(m.num_aux, false);
  mark_columns(m.a, a_inputs, d.a_aux);
  mark_columns(m.b, d.b_input, d.b_aux);
  return d;
}

}  // namespace zkpipe::groth16
