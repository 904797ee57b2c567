#include "r1cs/sparse_product.hpp"

#include "ff/huge_pages.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <array>
#include <stdexcept>

namespace zkpipe::r1cs {

namespace {

Fr fr_of_any(std::int64_t k) {
  const Fr magnitude = Fr::from_u64(static_cast<std::uint64_t>(k < 0 ? -k : k));
  return k < 0 ? -magnitude : magnitude;
}

// Most rows' small terms sum to a small integer (a booleanity row's 1 − b, an xor's
// a + b − c): those come from a table instead of a Montgomery multiplication each.
constexpr std::int64_t kTabled = 1024;

const std::array<Fr, 2 * kTabled + 1>& small_fr_table() {
  static const auto table = [] {
    std::array<Fr, 2 * kTabled + 1> t;
    for (std::int64_t k = -kTabled; k <= kTabled; ++k) t[static_cast<std::size_t>(k + kTabled)] = fr_of_any(k);
    return t;
  }();
  return table;
}

Fr fr_of(std::int64_t k) {
  if (k >= -kTabled && k <= kTabled) return small_fr_table()[static_cast<std::size_t>(k + kTabled)];
  return fr_of_any(k);
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

namespace {

// What the product needs to know of a value before reading it: 0, 1, or anything else.
enum ValueKind : std::uint8_t { kZero, kOne, kWide };

std::vector<std::uint8_t> kinds_of(std::span<const Fr> values) {
  std::vector<std::uint8_t> kinds;
  ff::resize_on_huge_pages(kinds, values.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, values.size(), 1 << 14), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      kinds[i] = values[i].is_zero() ? kZero : values[i].is_one() ? kOne : kWide;
    }
  });
  return kinds;
}

struct ClassifiedAssignment {
  const Assignment& z;
  std::vector<std::uint8_t> input_kinds;
  std::vector<std::uint8_t> aux_kinds;

  std::uint8_t kind(Variable v) const { return v.is_aux() ? aux_kinds[v.index()] : input_kinds[v.index()]; }
};

Fr evaluate_classified_row(const CompiledMatrix& m, std::span<const Fr> table, std::size_t row,
                           const ClassifiedAssignment& z) {
  const std::uint64_t begin = m.row_offsets[row];
  const std::uint64_t end = m.row_offsets[row + 1];
  std::int64_t small_sum = 0;
  Fr acc = Fr::zero();
  for (std::uint64_t k = begin; k < end; ++k) {
    const Variable v = m.columns[k];
    const std::uint8_t kind = z.kind(v);
    if (kind == kZero) continue;
    const std::uint32_t code = m.coefficients[k];
    if (kind == kOne) {
      if (coefficient_code::is_small(code)) {
        small_sum += coefficient_code::small_value(code);
      } else {
        acc += table[coefficient_code::table_index(code)];
      }
      continue;
    }
    const Fr& x = z.z[v];
    if (coefficient_code::is_small(code)) {
      const std::int32_t s = coefficient_code::small_value(code);
      if (s == 1) {
        acc += x;
      } else if (s == -1) {
        acc -= x;
      } else {
        acc += fr_of(s) * x;
      }
    } else {
      acc += table[coefficient_code::table_index(code)] * x;
    }
  }
  if (small_sum != 0) acc += fr_of(small_sum);
  return acc;
}

}  // namespace

AbcVectors evaluate_abc(const CompiledR1cs& m, const Assignment& z) {
  if (z.inputs.size() != m.num_inputs || z.aux.size() != m.num_aux) {
    throw std::invalid_argument("evaluate_abc: the assignment has " + std::to_string(z.inputs.size()) + " inputs and " +
                                std::to_string(z.aux.size()) + " aux values, the compiled circuit " +
                                std::to_string(m.num_inputs) + " and " + std::to_string(m.num_aux));
  }
  AbcVectors out;
  for (std::vector<Fr>* v : {&out.a, &out.b, &out.c}) ff::resize_on_huge_pages(*v, m.num_constraints);
  // One byte per value, read in place of the value for the 0s and 1s that most are.
  const ClassifiedAssignment classified{z, kinds_of(z.inputs), kinds_of(z.aux)};
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m.num_constraints, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      out.a[i] = evaluate_classified_row(m.a, m.coefficient_table, i, classified);
      out.b[i] = evaluate_classified_row(m.b, m.coefficient_table, i, classified);
      out.c[i] = evaluate_classified_row(m.c, m.coefficient_table, i, classified);
    }
  });
  return out;
}

}  // namespace zkpipe::r1cs
