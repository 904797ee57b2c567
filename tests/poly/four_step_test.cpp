// The blocked passes on shapes the domain would not pick for these sizes:
// many rows, many column tiles, and the degenerate single-row and
// single-column splits.
#include "poly/four_step.hpp"

#include <vector>

#include <gtest/gtest.h>

#include "reference.hpp"

namespace zkpipe::poly {
namespace {

using ff::Fr;
using test::bit_reversed;
using test::dft;
using test::random_values;
using test::same_values;

TEST(FourStep, AnySplitGivesTheDft) {
  const unsigned log_n = 8;
  const Fr root = ff::root_of_unity(log_n);
  const std::vector<Fr> a = random_values(std::size_t{1} << log_n, 1);
  const std::vector<Fr> expected = dft(a, root);
  for (unsigned log_rows = 0; log_rows <= log_n; ++log_rows) {
    const FourStepShape shape{log_rows, log_n - log_rows};
    const FourStepTwiddles twiddles(root, shape);

    std::vector<Fr> dif = a;
    dif_four_step(dif, shape, twiddles, {});
    EXPECT_TRUE(same_values(dif, bit_reversed(expected))) << "DIF, R = 2^" << log_rows;

    std::vector<Fr> dit = bit_reversed(a);
    dit_four_step(dit, shape, twiddles, {});
    EXPECT_TRUE(same_values(dit, expected)) << "DIT, R = 2^" << log_rows;
  }
}

// 2^16 as 2^8 × 2^8 runs the column pass over several tiles; DIT of the DIF
// output with the inverse root and 1/N brings the input back.
TEST(FourStep, ManyTilesRoundTrip) {
  const unsigned log_n = 16;
  const FourStepShape shape{8, 8};
  const Fr root = ff::root_of_unity(log_n);
  const FourStepTwiddles forward(root, shape);
  const FourStepTwiddles inverse(root.inverse(), shape);
  const std::vector<Fr> a = random_values(std::size_t{1} << log_n, 2);

  std::vector<Fr> v = a;
  dif_four_step(v, shape, forward, {});
  EXPECT_EQ(v[0], [&] {
    Fr sum = Fr::zero();
    for (const Fr& x : a) sum += x;
    return sum;
  }());
  EXPECT_EQ(v[1], test::evaluate(a, -Fr::one()));  // bit-reversed index 1 is output N/2
  FoldedScaling scaling;
  scaling.overall = Fr::from_u64(a.size()).inverse();
  dit_four_step(v, shape, inverse, scaling);
  EXPECT_TRUE(same_values(v, a));
}

}  // namespace
}  // namespace zkpipe::poly
