// PoRep challenge derivation (storage-proofs-porep/src/stacked/vanilla/challenges.rs).
#include <gtest/gtest.h>

#include "circuits/filecoin/porep/challenges.hpp"
#include "circuits/filecoin_test_util.hpp"

namespace zkpipe::filecoin::porep {
namespace {

using testing::filled;

core::NodeBytes fr_of(std::uint64_t v) {
  core::NodeBytes out{};
  for (int b = 0; b < 8; ++b) out[b] = static_cast<std::uint8_t>(v >> (8 * b));
  return out;
}

// challenges.rs test_synth_challenges_against_hardcoded: 2^10 nodes, replica_id = 55,
// comm_r = 101 (as Fr), 21 synthetic challenges, 10 PoRep challenges from rand [1; 32].
TEST(FilecoinChallenges, SyntheticReferenceVector) {
  const SyntheticChallenges synth(1 << 10, fr_of(55), fr_of(101), 21);
  const std::vector<std::uint64_t> expected_synth = {178, 297, 869, 211, 875, 477, 94,  781, 124, 332, 856,
                                                     801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
  for (std::size_t i = 0; i < expected_synth.size(); ++i) EXPECT_EQ(synth.challenge(i), expected_synth[i]) << i;
  EXPECT_THROW(synth.challenge(21), std::out_of_range);
  const std::vector<std::uint64_t> expected_porep = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
  EXPECT_EQ(synth.partition_challenges(filled(1), 10, 0), expected_porep);
}

// challenges.rs test_synth_challenges_32gib: partition k of 18 challenges is slice k of
// the 180 drawn as one partition.
TEST(FilecoinChallenges, SyntheticPartitionsSliceOneDraw) {
  const SyntheticChallenges synth(1ull << 30, fr_of(12345), fr_of(678));
  EXPECT_EQ(synth.count(), SyntheticChallenges::kDefaultCount);
  const std::vector<std::size_t> all = synth.partition_indexes(filled(1), 180, 0);
  for (std::size_t k = 0; k < 10; ++k) {
    const std::vector<std::size_t> part = synth.partition_indexes(filled(1), 18, k);
    EXPECT_TRUE(std::equal(part.begin(), part.end(), all.begin() + 18 * k)) << k;
  }
  // A small sector draws as many synthetic challenges as it has nodes.
  EXPECT_EQ(SyntheticChallenges(64, fr_of(1), fr_of(2)).count(), 64u);
}

// challenges.rs challenge_partition_equivalence: 5 partitions of 40 = one of 200. No
// published vector exists for the interactive or non-interactive draws.
TEST(FilecoinChallenges, PartitionsSliceOneDraw) {
  const ReplicaId id = filled(9);
  const ChallengeSeed seed = filled(44);
  const std::uint64_t nodes = 1ull << 30;
  const std::vector<std::uint64_t> whole = interactive_challenges(nodes, id, seed, 200, 0);
  const std::vector<std::uint64_t> ni_whole = non_interactive_challenges(nodes, id, filled(3), 200, 0);
  for (std::size_t k = 0; k < 5; ++k) {
    const auto part = interactive_challenges(nodes, id, seed, 40, k);
    EXPECT_TRUE(std::equal(part.begin(), part.end(), whole.begin() + 40 * k)) << k;
    const auto ni_part = non_interactive_challenges(nodes, id, filled(3), 40, k);
    EXPECT_TRUE(std::equal(ni_part.begin(), ni_part.end(), ni_whole.begin() + 40 * k)) << k;
  }
  EXPECT_NE(whole, ni_whole);
}

TEST(FilecoinChallenges, NeverNodeZero) {
  // With 3 nodes every draw lands on 1 or 2.
  for (std::uint64_t c : interactive_challenges(3, filled(1), filled(2), 100, 0)) {
    EXPECT_GE(c, 1u);
    EXPECT_LE(c, 2u);
  }
  for (std::uint64_t c : SyntheticChallenges(64, fr_of(3), fr_of(4)).partition_challenges(filled(5), 50, 0)) {
    EXPECT_GE(c, 1u);
    EXPECT_LT(c, 64u);
  }
}

// (x mod (nodes − 1)) + 1 over the 256-bit little-endian x.
TEST(FilecoinChallenges, ChallengeNodeArithmetic) {
  std::array<std::uint8_t, 32> x{};
  EXPECT_EQ(challenge_node(x, 64), 1u);
  x[0] = 63;
  EXPECT_EQ(challenge_node(x, 64), 1u);
  x[0] = 62;
  EXPECT_EQ(challenge_node(x, 64), 63u);
  // 2^248 mod 63 = 2^(248 mod 6) = 2^2 = 4 (2^6 ≡ 1), so the node is 5.
  x = {};
  x[31] = 1;
  EXPECT_EQ(challenge_node(x, 64), 5u);
  // All ones: 2^256 − 1 ≡ 2^4 − 1 = 15 (mod 63), node 16.
  x.fill(0xff);
  EXPECT_EQ(challenge_node(x, 64), 16u);
  EXPECT_THROW(challenge_node(x, 1), std::invalid_argument);
  EXPECT_THROW(challenge_node(x, 1ull << 32), std::invalid_argument);
}

TEST(FilecoinChallenges, DispatchFollowsTheSealProof) {
  const ReplicaId id = filled(9);
  const ChallengeSeed seed = filled(44);
  const core::NodeBytes comm_r = filled(3);
  const core::SealProof& v11 = core::seal_proof("StackedDrg32GiBV1_1");
  EXPECT_EQ(porep_challenges(v11, id, seed, comm_r, 9), interactive_challenges(1ull << 30, id, seed, 18, 9));
  const core::SealProof& synth = core::seal_proof("StackedDrg32GiBV1_1_Feat_SyntheticPoRep");
  EXPECT_EQ(porep_challenges(synth, id, seed, comm_r, 2),
            SyntheticChallenges(1ull << 30, id, comm_r).partition_challenges(seed, 18, 2));
  const core::SealProof& ni = core::seal_proof("StackedDrg32GiBV1_2_Feat_NonInteractivePoRep");
  EXPECT_EQ(porep_challenges(ni, id, seed, comm_r, 125), non_interactive_challenges(1ull << 30, id, comm_r, 18, 125));
  EXPECT_THROW(porep_challenges(v11, id, seed, comm_r, 10), std::invalid_argument);
  EXPECT_THROW(interactive_challenges(64, id, seed, 2, 256), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::filecoin::porep
