#include "poly/evaluation_domain.hpp"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace zkpipe::poly {
namespace {

using ff::Fr;

TEST(EvaluationDomain, RoundsUpToAPowerOfTwo) {
  EXPECT_EQ(EvaluationDomain(1).size(), 1u);
  EXPECT_EQ(EvaluationDomain(2).size(), 2u);
  EXPECT_EQ(EvaluationDomain(3).size(), 4u);
  EXPECT_EQ(EvaluationDomain(1000).size(), 1024u);
  EXPECT_EQ(EvaluationDomain(1024).size(), 1024u);
  EXPECT_EQ(EvaluationDomain(1025).log_size(), 11u);
}

TEST(EvaluationDomain, OmegaHasOrderExactlyN) {
  for (unsigned log_n : {1u, 2u, 5u, 16u, 28u}) {
    const EvaluationDomain d(std::size_t{1} << log_n);
    Fr x = d.omega();
    for (unsigned i = 1; i < log_n; ++i) x = x.square();
    EXPECT_EQ(x, -Fr::one()) << "ω^(N/2) must be −1 for N = 2^" << log_n;
    EXPECT_TRUE((d.omega() * d.omega_inv()).is_one());
  }
  EXPECT_TRUE(EvaluationDomain(1).omega().is_one());
}

TEST(EvaluationDomain, Constants) {
  const EvaluationDomain d(1 << 10);
  EXPECT_TRUE((d.size_inv() * Fr::from_u64(1024)).is_one());
  EXPECT_EQ(d.coset_shift(), ff::multiplicative_generator());
  EXPECT_TRUE((d.coset_shift() * d.coset_shift_inv()).is_one());
  EXPECT_EQ(d.vanishing_on_coset(), d.coset_shift().pow(1024) - Fr::one());
  EXPECT_TRUE((d.vanishing_on_coset() * d.vanishing_on_coset_inv()).is_one());
}

TEST(EvaluationDomain, VanishingPolynomialIsZeroOnTheDomainAndConstantOnTheCoset) {
  const EvaluationDomain d(1 << 6);
  Fr point = Fr::one();
  for (std::size_t i = 0; i < d.size(); ++i) {
    EXPECT_TRUE(d.vanishing_at(point).is_zero()) << "ω^" << i;
    EXPECT_EQ(d.vanishing_at(d.coset_shift() * point), d.vanishing_on_coset()) << "g·ω^" << i;
    point *= d.omega();
  }
  EXPECT_FALSE(d.vanishing_on_coset().is_zero());
}

TEST(EvaluationDomain, RejectsZeroAndOversizedDomainsNamingTheSize) {
  try {
    EvaluationDomain d(0);
    FAIL() << "size 0 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("size 0"), std::string::npos) << e.what();
  }
  const std::size_t too_big = (std::size_t{1} << EvaluationDomain::kMaxLogSize) + 1;
  try {
    EvaluationDomain d(too_big);
    FAIL() << "size 2^28 + 1 accepted";
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(std::to_string(too_big)), std::string::npos) << message;
    EXPECT_NE(message.find("2^29"), std::string::npos) << message;
  }
  EXPECT_EQ(EvaluationDomain(std::size_t{1} << 28).size(), std::size_t{1} << 28);
}

}  // namespace
}  // namespace zkpipe::poly
