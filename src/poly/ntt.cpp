#include "poly/ntt.hpp"

#include <stdexcept>
#include <string>

#include "poly/bit_reverse.hpp"
#include "poly/four_step.hpp"

namespace zkpipe::poly {

using ff::Fr;

namespace {

enum class Direction { forward, inverse };
enum class Coset { no, yes };

// g^(step·i) for i < count, by repeated multiplication.
std::vector<Fr> strided_powers(const Fr& g, std::size_t step, std::size_t count) {
  std::vector<Fr> table(count);
  const Fr base = g.pow(std::uint64_t{step});
  Fr x = Fr::one();
  for (auto& t : table) {
    t = x;
    x *= base;
  }
  return table;
}

// Same as strided_powers but stored at the bit-reversed index.
std::vector<Fr> strided_powers_bit_reversed(const Fr& g, std::size_t step, unsigned log_count) {
  std::vector<Fr> natural = strided_powers(g, step, std::size_t{1} << log_count);
  std::vector<Fr> table(natural.size());
  for (std::size_t i = 0; i < natural.size(); ++i) table[reverse_bits(i, log_count)] = natural[i];
  return table;
}

// Where each scaling of the coset transforms folds into the blocked passes
// (see four_step.hpp for the index algebra). With input index n = n1·C + n2
// (DIF) or output index n = n1·C + n2 (DIT), g^±n splits into a per-row table
// for the column pass and a per-column factor of the step-2 series; with a
// bit-reversed index n = rev_C(p2)·R + rev_R(p1), into a table for the row
// pass and a per-row factor of the series.
FoldedScaling folded_scaling(const EvaluationDomain& domain, Direction direction, Coset coset,
                             bool bit_reversed_input) {
  FoldedScaling s;
  if (direction == Direction::inverse) s.overall = domain.size_inv();
  if (coset == Coset::no) return s;
  const FourStepShape shape = domain.shape();
  const std::size_t rows = std::size_t{1} << shape.log_rows;
  const std::size_t cols = std::size_t{1} << shape.log_cols;
  const Fr& g = domain.coset_shift();
  const Fr& g_inv = domain.coset_shift_inv();
  if (direction == Direction::forward && !bit_reversed_input) {
    s.first_pass = strided_powers(g, cols, rows);
    s.column_factor = g;
  } else if (direction == Direction::forward) {
    s.first_pass = strided_powers_bit_reversed(g, rows, shape.log_cols);
    s.row_factor = g;
  } else if (!bit_reversed_input) {
    s.last_pass = strided_powers_bit_reversed(g_inv, rows, shape.log_cols);
    s.row_factor = g_inv;
  } else {
    s.last_pass = strided_powers(g_inv, cols, rows);
    s.column_factor = g_inv;
  }
  return s;
}

void check_size(const char* name, const EvaluationDomain& domain, std::span<const Fr> values) {
  if (values.size() != domain.size()) {
    throw std::invalid_argument(std::string(name) + ": " + std::to_string(values.size()) +
                                " values for a domain of " + std::to_string(domain.size()) +
                                " points");
  }
}

void transform(const char* name, const EvaluationDomain& domain, std::span<Fr> values,
               NttOrder order, Direction direction, Coset coset) {
  check_size(name, domain, values);
  const FourStepTwiddles& twiddles =
      direction == Direction::forward ? domain.forward_twiddles() : domain.inverse_twiddles();
  const bool bit_reversed_input = order == NttOrder::bit_reversed_to_natural;
  const FoldedScaling scaling = folded_scaling(domain, direction, coset, bit_reversed_input);
  if (bit_reversed_input) {
    dit_four_step(values, domain.shape(), twiddles, scaling);
    return;
  }
  dif_four_step(values, domain.shape(), twiddles, scaling);
  if (order == NttOrder::natural_to_natural) bit_reverse_permutation(values);
}

}  // namespace

void forward_ntt(const EvaluationDomain& domain, std::span<Fr> values, NttOrder order) {
  transform("forward_ntt", domain, values, order, Direction::forward, Coset::no);
}

void inverse_ntt(const EvaluationDomain& domain, std::span<Fr> values, NttOrder order) {
  transform("inverse_ntt", domain, values, order, Direction::inverse, Coset::no);
}

void coset_forward_ntt(const EvaluationDomain& domain, std::span<Fr> values, NttOrder order) {
  transform("coset_forward_ntt", domain, values, order, Direction::forward, Coset::yes);
}

void coset_inverse_ntt(const EvaluationDomain& domain, std::span<Fr> values, NttOrder order) {
  transform("coset_inverse_ntt", domain, values, order, Direction::inverse, Coset::yes);
}

}  // namespace zkpipe::poly
