// The Grain LFSR the Poseidon constants come from (hash/grain_lfsr.hpp). Its neptune
// stream is checked against neptune's round constants in
// tests/circuits/filecoin_poseidon_test.cpp.
#include <gtest/gtest.h>

#include "hash/grain_lfsr.hpp"

namespace zkpipe::hash::poseidon {
namespace {

TEST(GrainLfsr, DependsOnEveryParameter) {
  auto first_constant = [](unsigned t, unsigned rf, unsigned rp, unsigned sbox) {
    GrainLfsr lfsr(255, t, rf, rp, sbox);
    return lfsr.next_fr_rejection_sampled();
  };
  const ff::Fr base = first_constant(3, 8, 57, GrainLfsr::kSboxPaper);
  EXPECT_NE(base, first_constant(9, 8, 57, GrainLfsr::kSboxPaper));
  EXPECT_NE(base, first_constant(3, 10, 57, GrainLfsr::kSboxPaper));
  EXPECT_NE(base, first_constant(3, 8, 56, GrainLfsr::kSboxPaper));
  EXPECT_NE(base, first_constant(3, 8, 57, GrainLfsr::kSboxNeptune));
}

}  // namespace
}  // namespace zkpipe::hash::poseidon
