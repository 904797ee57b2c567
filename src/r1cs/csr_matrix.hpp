// One constraint matrix (A, B or C) in compressed sparse row form: row i is
// constraint i, its entries are (variable, coefficient) pairs. Columns are kept as
// Variables, so a row is evaluated against inputs and aux without re-indexing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "r1cs/linear_combination.hpp"

namespace zkpipe::r1cs {

class CsrMatrix {
 public:
  CsrMatrix() : row_offsets_{0} {}

  void append_row(const LinearCombination& lc);

  std::size_t rows() const { return row_offsets_.size() - 1; }
  std::size_t nonzeros() const { return columns_.size(); }

  std::span<const Variable> row_columns(std::size_t row) const {
    return std::span(columns_).subspan(row_offsets_[row], row_length(row));
  }
  std::span<const Fr> row_coeffs(std::size_t row) const {
    return std::span(coeffs_).subspan(row_offsets_[row], row_length(row));
  }

  const std::vector<std::uint64_t>& row_offsets() const { return row_offsets_; }
  const std::vector<Variable>& columns() const { return columns_; }
  const std::vector<Fr>& coeffs() const { return coeffs_; }

  Fr evaluate_row(std::size_t row, const Assignment& z) const;

 private:
  std::size_t row_length(std::size_t row) const { return row_offsets_[row + 1] - row_offsets_[row]; }

  std::vector<std::uint64_t> row_offsets_;
  std::vector<Variable> columns_;
  std::vector<Fr> coeffs_;
};

// M·z for the full assignment z = inputs ‖ aux, rows evaluated in parallel.
std::vector<Fr> multiply(const CsrMatrix& m, const Assignment& z);

}  // namespace zkpipe::r1cs
