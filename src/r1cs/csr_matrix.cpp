#include "r1cs/csr_matrix.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace zkpipe::r1cs {

void CsrMatrix::append_row(const LinearCombination& lc) {
  for (const Term& t : lc.terms()) {
    columns_.push_back(t.var);
    coeffs_.push_back(t.coeff);
  }
  row_offsets_.push_back(columns_.size());
}

Fr CsrMatrix::evaluate_row(std::size_t row, const Assignment& z) const {
  const std::span<const Variable> cols = row_columns(row);
  const std::span<const Fr> coeffs = row_coeffs(row);
  Fr acc = Fr::zero();
  for (std::size_t k = 0; k < cols.size(); ++k) {
    const Fr& v = z[cols[k]];
    acc += coeffs[k].is_one() ? v : coeffs[k] * v;
  }
  return acc;
}

std::vector<Fr> multiply(const CsrMatrix& m, const Assignment& z) {
  std::vector<Fr> out(m.rows());
  // Rows are a few terms each, so hand out chunks large enough to amortize scheduling.
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m.rows(), 4096),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i != r.end(); ++i) out[i] = m.evaluate_row(i, z);
                    });
  return out;
}

}  // namespace zkpipe::r1cs
