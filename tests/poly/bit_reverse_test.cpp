#include "poly/bit_reverse.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "reference.hpp"

namespace zkpipe::poly {
namespace {

using ff::Fr;

TEST(ReverseBits, ReversesTheLowBits) {
  EXPECT_EQ(reverse_bits(0, 0), 0u);
  EXPECT_EQ(reverse_bits(1, 1), 1u);
  EXPECT_EQ(reverse_bits(1, 3), 4u);
  EXPECT_EQ(reverse_bits(6, 3), 3u);
  EXPECT_EQ(reverse_bits(0b1011, 4), 0b1101u);
  EXPECT_EQ(reverse_bits(1, 28), std::size_t{1} << 27);
  EXPECT_EQ(reverse_bits(0x12345, 20), 0xa2c48u);
}

// Sizes on both sides of the switch from pairwise swaps to tiled swaps, with
// odd and even numbers of bits (the middle tile index maps to itself or not).
TEST(BitReversePermutation, MatchesTheIndexDefinition) {
  for (unsigned log_n = 0; log_n <= 17; ++log_n) {
    const std::size_t n = std::size_t{1} << log_n;
    std::vector<Fr> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = Fr::from_u64(i);
    std::vector<Fr> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[reverse_bits(i, log_n)] = values[i];
    bit_reverse_permutation(values);
    EXPECT_TRUE(test::same_values(values, expected)) << "n = 2^" << log_n;
  }
}

TEST(BitReversePermutation, IsAnInvolution) {
  const std::vector<Fr> original = test::random_values(1 << 13, 1);
  std::vector<Fr> values = original;
  bit_reverse_permutation(values);
  bit_reverse_permutation(values);
  EXPECT_TRUE(test::same_values(values, original));
}

TEST(BitReversePermutation, RejectsSizesThatAreNotPowersOfTwo) {
  std::vector<Fr> values(12);
  try {
    bit_reverse_permutation(values);
    FAIL() << "size 12 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("12"), std::string::npos) << e.what();
  }
  std::vector<Fr> empty;
  EXPECT_THROW(bit_reverse_permutation(empty), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::poly
