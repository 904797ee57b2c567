#include "groth16/qap.hpp"

#include <atomic>
#include <stdexcept>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

namespace zkpipe::groth16 {

std::vector<Fr> lagrange_basis_at(const poly::EvaluationDomain& domain, const Fr& tau) {
  const std::size_t n = domain.size();
  const Fr scale = domain.vanishing_at(tau) * domain.size_inv();
  std::vector<Fr> basis(n);
  // L_j(τ) = Z(τ)·ω^j / (N·(τ − ω^j)), in chunks on all cores: each chunk starts
  // from ω^first and inverts its denominators in one batch (a 2^27 domain is ~20 s
  // on one core).
  constexpr std::size_t kChunk = std::size_t{1} << 14;
  std::atomic<bool> in_domain = false;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, kChunk), [&](const auto& r) {
    const std::size_t len = r.size();
    std::vector<Fr> omega_pow(len);
    std::vector<Fr> prefixes(len);
    Fr w = domain.omega().pow(r.begin());
    Fr prefix = Fr::one();
    for (std::size_t k = 0; k < len; ++k) {
      omega_pow[k] = w;
      const Fr d = tau - w;
      if (d.is_zero()) {
        in_domain = true;
        return;
      }
      prefixes[k] = prefix;
      prefix *= d;
      w *= domain.omega();
    }
    Fr inv = prefix.inverse();
    for (std::size_t k = len; k-- > 0;) {
      basis[r.begin() + k] = inv * prefixes[k] * omega_pow[k] * scale;
      inv *= tau - omega_pow[k];
    }
  });
  if (in_domain) throw std::invalid_argument("setup: tau lies in the evaluation domain");
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

// Σ over rows of coefficient·L_row(τ) into each entry's column, for one compiled
// matrix (one core: the scatter into columns has no cheap split).
void accumulate_columns(const r1cs::CompiledMatrix& matrix, std::span<const Fr> table,
                        const std::vector<Fr>& basis, std::size_t num_inputs, std::vector<Fr>& out) {
  for (std::size_t row = 0; row < matrix.rows(); ++row) {
    for (std::uint64_t k = matrix.row_offsets[row]; k < matrix.row_offsets[row + 1]; ++k) {
      const r1cs::Variable v = matrix.columns[k];
      const std::size_t col = v.is_input() ? v.index() : num_inputs + v.index();
      out[col] += r1cs::coefficient_code::decode(matrix.coefficients[k], table) * basis[row];
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

QapAtPoint evaluate_qap(const r1cs::CompiledR1cs& m, const poly::EvaluationDomain& domain, const Fr& tau) {
  if (m.num_constraints > domain.size()) {
    throw std::invalid_argument("setup: domain smaller than the number of constraints");
  }
  const std::vector<Fr> basis = lagrange_basis_at(domain, tau);
  const std::size_t vars = m.num_inputs + m.num_aux;
  QapAtPoint q{std::vector<Fr>(vars), std::vector<Fr>(vars), std::vector<Fr>(vars)};
  tbb::parallel_invoke([&] { accumulate_columns(m.a, m.coefficient_table, basis, m.num_inputs, q.u); },
                       [&] { accumulate_columns(m.b, m.coefficient_table, basis, m.num_inputs, q.v); },
                       [&] { accumulate_columns(m.c, m.coefficient_table, basis, m.num_inputs, q.w); });
  return q;
}

QueryDensity query_density(const r1cs::CompiledR1cs& m) {
  auto bits = [](const r1cs::DensityBitmap& bitmap) {
    std::vector<bool> out(bitmap.size());
    for (std::size_t i = 0; i < bitmap.size(); ++i) out[i] = bitmap.test(i);
    return out;
  };
  return {bits(m.a_aux_density), bits(m.b_input_density), bits(m.b_aux_density)};
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
