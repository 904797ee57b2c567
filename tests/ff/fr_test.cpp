// Fr's two-adic structure: the roots of unity that the NTT relies on.
#include <gtest/gtest.h>

#include <stdexcept>

#include "ff/fr.hpp"

namespace zkpipe::ff {
namespace {

TEST(Fr, TwoAdicityIs32) {
  EXPECT_EQ(Fr::kTwoAdicity, 32u);
  // r - 1 = 2^32 · t with t odd.
  EXPECT_EQ(Fr::kModulus[0] & 0xffffffffu, 1u);
  EXPECT_EQ((Fr::kModulus[0] >> 32) & 1u, 1u);
}

TEST(Fr, RootOfUnityHasExactOrder) {
  for (unsigned k = 0; k <= 32; ++k) {
    const Fr w = root_of_unity(k);
    Fr x = w;
    // After k - 1 squarings x = w^(2^(k-1)), which must be -1 (not 1) for order 2^k.
    for (unsigned i = 0; i + 1 < k; ++i) x = x.square();
    if (k == 0) {
      EXPECT_TRUE(w.is_one());
      continue;
    }
    EXPECT_EQ(x, -Fr::one()) << "k = " << k;
    EXPECT_TRUE(x.square().is_one()) << "k = " << k;
  }
}

TEST(Fr, RootsAreNestedBySquaring) {
  for (unsigned k = 1; k <= 32; ++k) EXPECT_EQ(root_of_unity(k).square(), root_of_unity(k - 1));
}

TEST(Fr, RootOfUnityBeyondTwoAdicityThrows) {
  EXPECT_THROW(root_of_unity(33), std::invalid_argument);
  EXPECT_THROW(root_of_unity(64), std::invalid_argument);
}

TEST(Fr, MultiplicativeGeneratorIsANonResidue) {
  EXPECT_EQ(multiplicative_generator(), Fr::from_u64(7));
  EXPECT_EQ(multiplicative_generator().legendre(), -1);
}

}  // namespace
}  // namespace zkpipe::ff
