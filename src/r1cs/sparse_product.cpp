#include "r1cs/sparse_product.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <stdexcept>

namespace zkpipe::r1cs {

namespace {

Fr fr_of(std::int64_t k) {
  const Fr magnitude = Fr::from_u64(static_cast<std::uint64_t>(k < 0 ? -k : k));
  return k < 0 ? -magnitude : magnitude;
}

}  // namespace

Fr evaluate_row(const CompiledMatrix& m, std::span<const Fr> coefficient_table, std::size_t row,
                const Assignment& z) {
  const std::uint64_t begin = m.row_offsets[row];
  const std::uint64_t end = m.row_offsets[row + 1];
  // |small| ≤ 2^30 per term, so 2^32 terms could not overflow it.
  std::int64_t small_sum = 0;
  Fr acc = Fr::zero();
  for (std::uint64_t k = begin; k < end; ++k) {
    const Fr& x = z[m.columns[k]];
    if (x.is_zero()) continue;
    const std::uint32_t code = m.coefficients[k];
    if (coefficient_code::is_small(code)) {
      const std::int32_t s = coefficient_code::small_value(code);
      if (x.is_one()) {
        small_sum += s;
      } else if (s == 1) {
        acc += x;
      } else if (s == -1) {
        acc -= x;
      } else {
        acc += fr_of(s) * x;
      }
    } else {
      const Fr& c = coefficient_table[coefficient_code::table_index(code)];
      acc += x.is_one() ? c : c * x;
    }
  }
  if (small_sum != 0) acc += fr_of(small_sum);
  return acc;
}

AbcVectors evaluate_abc(const CompiledR1cs& m, const Assignment& z) {
  if (z.inputs.size() != m.num_inputs || z.aux.size() != m.num_aux) {
    throw std::invalid_argument("evaluate_abc: the assignment has " + std::to_string(z.inputs.size()) + " inputs and " +
                                std::to_string(z.aux.size()) + " aux values, the compiled circuit " +
                                std::to_string(m.num_inputs) + " and " + std::to_string(m.num_aux));
  }
  AbcVectors out{std::vector<Fr>(m.num_constraints), std::vector<Fr>(m.num_constraints),
                 std::vector<Fr>(m.num_constraints)};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m.num_constraints, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      out.a[i] = evaluate_row(m.a, m.coefficient_table, i, z);
      out.b[i] = evaluate_row(m.b, m.coefficient_table, i, z);
      out.c[i] = evaluate_row(m.c, m.coefficient_table, i, z);
    }
  });
  return out;
}

}  // namespace zkpipe::r1cs
