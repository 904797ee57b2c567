#include "poly/ntt.hpp"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "poly/bit_reverse.hpp"
#include "reference.hpp"

namespace zkpipe::poly {
namespace {

using ff::Fr;
using test::bit_reversed;
using test::dft;
using test::random_values;
using test::same_values;

using Transform = void (*)(const EvaluationDomain&, std::span<Fr>, NttOrder);

// Runs `transform` on `input` given in natural order, using the order's input
// convention, and returns the output in natural order.
std::vector<Fr> run_natural(Transform transform, const EvaluationDomain& d, std::vector<Fr> input,
                            NttOrder order) {
  if (order == NttOrder::bit_reversed_to_natural) input = bit_reversed(input);
  transform(d, input, order);
  if (order == NttOrder::natural_to_bit_reversed) input = bit_reversed(input);
  return input;
}

constexpr NttOrder kOrders[] = {NttOrder::natural_to_natural, NttOrder::natural_to_bit_reversed,
                                NttOrder::bit_reversed_to_natural};

// What each transform must compute, by the O(n²) definition.
std::vector<Fr> expected_forward(const EvaluationDomain& d, const std::vector<Fr>& a) {
  return dft(a, d.omega());
}
std::vector<Fr> expected_inverse(const EvaluationDomain& d, const std::vector<Fr>& a) {
  return test::scaled(dft(a, d.omega_inv()), d.size_inv());
}
std::vector<Fr> expected_coset_forward(const EvaluationDomain& d, const std::vector<Fr>& a) {
  return dft(test::scaled_by_powers(a, d.coset_shift()), d.omega());
}
std::vector<Fr> expected_coset_inverse(const EvaluationDomain& d, const std::vector<Fr>& a) {
  return test::scaled_by_powers(expected_inverse(d, a), d.coset_shift_inv());
}

struct Case {
  const char* name;
  Transform transform;
  std::vector<Fr> (*expected)(const EvaluationDomain&, const std::vector<Fr>&);
};

const Case kCases[] = {
    {"forward", forward_ntt, expected_forward},
    {"inverse", inverse_ntt, expected_inverse},
    {"coset forward", coset_forward_ntt, expected_coset_forward},
    {"coset inverse", coset_inverse_ntt, expected_coset_inverse},
};

TEST(Ntt, MatchesTheQuadraticDftForSmallSizes) {
  for (unsigned log_n = 0; log_n <= 8; ++log_n) {
    const EvaluationDomain d(std::size_t{1} << log_n);
    const std::vector<Fr> a = random_values(d.size(), log_n);
    for (const Case& c : kCases) {
      const std::vector<Fr> expected = c.expected(d, a);
      for (NttOrder order : kOrders) {
        EXPECT_TRUE(same_values(run_natural(c.transform, d, a, order), expected))
            << c.name << ", n = 2^" << log_n << ", order " << static_cast<int>(order);
      }
    }
  }
}

// Sizes past the single-block threshold use the blocked passes; there a few
// outputs, checked by direct evaluation, stand in for the quadratic DFT.
TEST(Ntt, BlockedSizesMatchDirectEvaluationAtSampledPoints) {
  for (unsigned log_n : {13u, 16u}) {
    const EvaluationDomain d(std::size_t{1} << log_n);
    const std::vector<Fr> a = random_values(d.size(), 100 + log_n);
    const std::vector<Fr> inv_a = test::scaled(a, d.size_inv());
    for (NttOrder order : kOrders) {
      const std::vector<Fr> forward = run_natural(forward_ntt, d, a, order);
      const std::vector<Fr> coset = run_natural(coset_forward_ntt, d, a, order);
      const std::vector<Fr> inverse = run_natural(inverse_ntt, d, a, order);
      const std::vector<Fr> coset_inverse = run_natural(coset_inverse_ntt, d, a, order);
      for (std::size_t j : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{777},
                            d.size() / 2 + 3, d.size() - 1}) {
        const Fr w = d.omega().pow(std::uint64_t{j});
        const Fr w_inv = d.omega_inv().pow(std::uint64_t{j});
        EXPECT_EQ(forward[j], test::evaluate(a, w)) << "forward 2^" << log_n << " at " << j;
        EXPECT_EQ(coset[j], test::evaluate(a, d.coset_shift() * w))
            << "coset forward 2^" << log_n << " at " << j;
        EXPECT_EQ(inverse[j], test::evaluate(inv_a, w_inv)) << "inverse 2^" << log_n << " at " << j;
        // Coefficient j of the coset inverse is g^-j times that of the inverse.
        EXPECT_EQ(coset_inverse[j], d.coset_shift_inv().pow(std::uint64_t{j}) * inverse[j])
            << "coset inverse 2^" << log_n << " at " << j;
      }
    }
  }
}

// Each forward order paired with the inverse order that takes its output as is.
TEST(Ntt, InverseUndoesForwardForLargeSizes) {
  const std::pair<NttOrder, NttOrder> round_trips[] = {
      {NttOrder::natural_to_natural, NttOrder::natural_to_natural},
      {NttOrder::natural_to_bit_reversed, NttOrder::bit_reversed_to_natural},
      {NttOrder::bit_reversed_to_natural, NttOrder::natural_to_bit_reversed},
  };
  for (unsigned log_n : {16u, 17u}) {
    const EvaluationDomain d(std::size_t{1} << log_n);
    const std::vector<Fr> a = random_values(d.size(), 200 + log_n);
    for (auto [forward_order, inverse_order] : round_trips) {
      std::vector<Fr> v = a;
      forward_ntt(d, v, forward_order);
      EXPECT_FALSE(same_values(v, a));
      inverse_ntt(d, v, inverse_order);
      EXPECT_TRUE(same_values(v, a))
          << "2^" << log_n << ", forward order " << static_cast<int>(forward_order);
    }
  }
}

TEST(Ntt, CosetRoundTripAndChainingWithoutPermutation) {
  const EvaluationDomain d(1 << 16);
  const std::vector<Fr> a = random_values(d.size(), 300);

  std::vector<Fr> v = a;
  coset_forward_ntt(d, v);
  coset_inverse_ntt(d, v);
  EXPECT_TRUE(same_values(v, a));

  // The prover's chain: evaluations on H -> coefficients (bit-reversed) ->
  // evaluations on g·H (natural) -> coefficients (bit-reversed) -> back on H.
  std::vector<Fr> chained = a;
  inverse_ntt(d, chained, NttOrder::natural_to_bit_reversed);
  coset_forward_ntt(d, chained, NttOrder::bit_reversed_to_natural);
  coset_inverse_ntt(d, chained, NttOrder::natural_to_bit_reversed);
  forward_ntt(d, chained, NttOrder::bit_reversed_to_natural);
  EXPECT_TRUE(same_values(chained, a));

  // Evaluations on g·H equal the plain NTT of the coefficients scaled by g^i.
  std::vector<Fr> coefficients = a;
  inverse_ntt(d, coefficients);
  std::vector<Fr> on_coset = coefficients;
  coset_forward_ntt(d, on_coset);
  std::vector<Fr> scaled = test::scaled_by_powers(coefficients, d.coset_shift());
  forward_ntt(d, scaled);
  EXPECT_TRUE(same_values(on_coset, scaled));
}

TEST(Ntt, OrderVariantsAgree) {
  const EvaluationDomain d(1 << 16);
  const std::vector<Fr> a = random_values(d.size(), 400);
  for (const Case& c : kCases) {
    std::vector<Fr> natural = a;
    c.transform(d, natural, NttOrder::natural_to_natural);
    std::vector<Fr> to_reversed = a;
    c.transform(d, to_reversed, NttOrder::natural_to_bit_reversed);
    std::vector<Fr> from_reversed = bit_reversed(a);
    c.transform(d, from_reversed, NttOrder::bit_reversed_to_natural);
    EXPECT_TRUE(same_values(bit_reversed(to_reversed), natural)) << c.name;
    EXPECT_TRUE(same_values(from_reversed, natural)) << c.name;
  }
}

TEST(Ntt, ThreadedEqualsSingleThreaded) {
  const EvaluationDomain d(1 << 18);
  const std::vector<Fr> a = random_values(d.size(), 500);
  tbb::task_arena single_thread(1);
  for (const Case& c : kCases) {
    for (NttOrder order : {NttOrder::natural_to_natural, NttOrder::bit_reversed_to_natural}) {
      std::vector<Fr> threaded = a;
      c.transform(d, threaded, order);
      std::vector<Fr> serial = a;
      single_thread.execute([&] { c.transform(d, serial, order); });
      EXPECT_TRUE(same_values(threaded, serial)) << c.name << ", order " << static_cast<int>(order);
    }
  }
}

TEST(Ntt, RejectsValuesOfTheWrongSize) {
  const EvaluationDomain d(16);
  std::vector<Fr> too_few(15);
  try {
    forward_ntt(d, too_few);
    FAIL() << "15 values accepted for 16 points";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("forward_ntt"), std::string::npos) << message;
    EXPECT_NE(message.find("15 values"), std::string::npos) << message;
    EXPECT_NE(message.find("16 points"), std::string::npos) << message;
  }
  std::vector<Fr> too_many(17);
  EXPECT_THROW(inverse_ntt(d, too_many), std::invalid_argument);
  EXPECT_THROW(coset_forward_ntt(d, too_many, NttOrder::bit_reversed_to_natural),
               std::invalid_argument);
  EXPECT_THROW(coset_inverse_ntt(d, too_few, NttOrder::natural_to_bit_reversed),
               std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::poly
