#include "r1cs/sparse_product.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <array>
#include <stdexcept>
#include <string>

#include "ff/huge_pages.hpp"

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

// A value as the product sees it: 0, 1, or a wide field element (pointer).
struct ValueRef {
  enum Kind : std::uint8_t { kZero, kOne, kWide } kind;
  const Fr* wide;
};

class ValueReader {
 public:
  ValueReader(std::span<const Fr> inputs, const CompactValues& aux)
      : inputs_(inputs),
        wide_mask_(aux.wide_mask().data()),
        bits_(aux.bits().data()),
        wide_before_(aux.wide_before().data()),
        wide_values_(aux.wide_values().data()) {}

  ValueRef operator()(Variable v) const {
    if (v.is_input()) {
      const Fr& x = inputs_[v.index()];
      return {x.is_zero() ? ValueRef::kZero : x.is_one() ? ValueRef::kOne : ValueRef::kWide, &x};
    }
    const std::uint32_t i = v.index();
    const std::uint32_t word = i / 64;
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    if ((wide_mask_[word] & bit) == 0) return {(bits_[word] & bit) != 0 ? ValueRef::kOne : ValueRef::kZero, nullptr};
    const auto below = static_cast<std::uint32_t>(std::popcount(wide_mask_[word] & (bit - 1)));
    return {ValueRef::kWide, &wide_values_[wide_before_[word] + below]};
  }

 private:
  std::span<const Fr> inputs_;
  const std::uint64_t* wide_mask_;
  const std::uint64_t* bits_;
  const std::uint32_t* wide_before_;
  const Fr* wide_values_;
};

Fr evaluate_row(const CompiledMatrix& m, std::span<const Fr> table, std::size_t row, const ValueReader& value_of) {
  const std::uint64_t begin = m.row_offsets[row];
  const std::uint64_t end = m.row_offsets[row + 1];
  // |small| ≤ 2^30 per term, so 2^32 terms could not overflow it.
  std::int64_t small_sum = 0;
  Fr acc = Fr::zero();
  for (std::uint64_t k = begin; k < end; ++k) {
    const ValueRef x = value_of(m.columns[k]);
    if (x.kind == ValueRef::kZero) continue;
    const std::uint32_t code = m.coefficients[k];
    if (x.kind == ValueRef::kOne) {
      if (coefficient_code::is_small(code)) {
        small_sum += coefficient_code::small_value(code);
      } else {
        acc += table[coefficient_code::table_index(code)];
      }
      continue;
    }
    if (coefficient_code::is_small(code)) {
      const std::int32_t s = coefficient_code::small_value(code);
      if (s == 1) {
        acc += *x.wide;
      } else if (s == -1) {
        acc -= *x.wide;
      } else {
        acc += fr_of(s) * *x.wide;
      }
    } else {
      acc += table[coefficient_code::table_index(code)] * *x.wide;
    }
  }
  if (small_sum != 0) acc += fr_of(small_sum);
  return acc;
}

}  // namespace

AbcVectors evaluate_abc(const CompiledR1cs& m, std::span<const Fr> inputs, const CompactValues& aux) {
  if (inputs.size() != m.num_inputs || aux.size() != m.num_aux) {
    throw std::invalid_argument("evaluate_abc: the assignment has " + std::to_string(inputs.size()) + " inputs and " +
                                std::to_string(aux.size()) + " aux values, the compiled circuit " +
                                std::to_string(m.num_inputs) + " and " + std::to_string(m.num_aux));
  }
  AbcVectors out;
  for (std::vector<Fr>* v : {&out.a, &out.b, &out.c}) ff::resize_on_huge_pages(*v, m.num_constraints);
  const ValueReader value_of(inputs, aux);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m.num_constraints, 4096), [&](const auto& range) {
    for (std::size_t i = range.begin(); i != range.end(); ++i) {
      out.a[i] = evaluate_row(m.a, m.coefficient_table, i, value_of);
      out.b[i] = evaluate_row(m.b, m.coefficient_table, i, value_of);
      out.c[i] = evaluate_row(m.c, m.coefficient_table, i, value_of);
    }
  });
  return out;
}

AbcVectors evaluate_abc(const CompiledR1cs& m, const Assignment& z) {
  if (z.aux.size() != m.num_aux) {
    throw std::invalid_argument("evaluate_abc: the assignment has " + std::to_string(z.aux.size()) +
                                " aux values, the compiled circuit " + std::to_string(m.num_aux));
  }
  return evaluate_abc(m, z.inputs, CompactValues::of(z.aux));
}

}  // namespace zkpipe::r1cs
