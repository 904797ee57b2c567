#include "circuits/filecoin/hashers/poseidon_matrix.hpp"

#include <stdexcept>
#include <utility>

namespace zkpipe::filecoin::hashers::poseidon {

SquareMatrix SquareMatrix::identity(std::size_t n) {
  SquareMatrix m(n);
  for (std::size_t i = 0; i < n; ++i) m.at(i, i) = Fr::one();
  return m;
}

SquareMatrix SquareMatrix::minor(std::size_t row, std::size_t col) const {
  if (n_ == 0 || row >= n_ || col >= n_) throw std::out_of_range("SquareMatrix::minor");
  SquareMatrix m(n_ - 1);
  for (std::size_t i = 0, mi = 0; i < n_; ++i) {
    if (i == row) continue;
    for (std::size_t j = 0, mj = 0; j < n_; ++j) {
      if (j == col) continue;
      m.at(mi, mj++) = at(i, j);
    }
    ++mi;
  }
  return m;
}

SquareMatrix SquareMatrix::transpose() const {
  SquareMatrix m(n_);
  for (std::size_t i = 0; i < n_; ++i) {
    for (std::size_t j = 0; j < n_; ++j) m.at(j, i) = at(i, j);
  }
  return m;
}

std::optional<SquareMatrix> SquareMatrix::inverse() const {
  SquareMatrix a = *this;
  SquareMatrix inv = identity(n_);
  for (std::size_t col = 0; col < n_; ++col) {
    std::size_t pivot = col;
    while (pivot < n_ && a.at(pivot, col).is_zero()) ++pivot;
    if (pivot == n_) return std::nullopt;
    if (pivot != col) {
      for (std::size_t j = 0; j < n_; ++j) {
        std::swap(a.at(pivot, j), a.at(col, j));
        std::swap(inv.at(pivot, j), inv.at(col, j));
      }
    }
    const Fr scale = a.at(col, col).inverse();
    for (std::size_t j = 0; j < n_; ++j) {
      a.at(col, j) *= scale;
      inv.at(col, j) *= scale;
    }
    for (std::size_t i = 0; i < n_; ++i) {
      if (i == col || a.at(i, col).is_zero()) continue;
      const Fr factor = a.at(i, col);
      for (std::size_t j = 0; j < n_; ++j) {
        a.at(i, j) -= factor * a.at(col, j);
        inv.at(i, j) -= factor * inv.at(col, j);
      }
    }
  }
  return inv;
}

std::vector<Fr> SquareMatrix::times_column(std::span<const Fr> v) const {
  if (v.size() != n_) throw std::invalid_argument("SquareMatrix::times_column: size");
  std::vector<Fr> out(n_, Fr::zero());
  for (std::size_t i = 0; i < n_; ++i) {
    for (std::size_t j = 0; j < n_; ++j) out[i] += at(i, j) * v[j];
  }
  return out;
}

SquareMatrix operator*(const SquareMatrix& a, const SquareMatrix& b) {
  if (a.size() != b.size()) throw std::invalid_argument("SquareMatrix product: sizes differ");
  const std::size_t n = a.size();
  SquareMatrix m(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < n; ++k) {
      for (std::size_t j = 0; j < n; ++j) m.at(i, j) += a.at(i, k) * b.at(k, j);
    }
  }
  return m;
}

}  // namespace zkpipe::filecoin::hashers::poseidon
