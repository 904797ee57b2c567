// Square matrices over Fr, just what deriving neptune's optimized Poseidon constants
// needs (products, inverses, minors). Row-major: at(i, j) is row i, column j.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace zkpipe::filecoin::hashers::poseidon {

using ff::Fr;

class SquareMatrix {
 public:
  explicit SquareMatrix(std::size_t n) : n_(n), cells_(n * n, Fr::zero()) {}

  static SquareMatrix identity(std::size_t n);

  std::size_t size() const { return n_; }
  Fr& at(std::size_t i, std::size_t j) { return cells_[i * n_ + j]; }
  const Fr& at(std::size_t i, std::size_t j) const { return cells_[i * n_ + j]; }

  // The matrix without row `row` and column `col`.
  SquareMatrix minor(std::size_t row, std::size_t col) const;
  SquareMatrix transpose() const;
  // Gauss–Jordan elimination; nullopt when singular.
  std::optional<SquareMatrix> inverse() const;

  // M·v, v a column vector.
  std::vector<Fr> times_column(std::span<const Fr> v) const;

  bool operator==(const SquareMatrix&) const = default;

 private:
  std::size_t n_;
  std::vector<Fr> cells_;
};

SquareMatrix operator*(const SquareMatrix& a, const SquareMatrix& b);

}  // namespace zkpipe::filecoin::hashers::poseidon
