// Filecoin's SnapDeals circuit (storage-proofs-update's EmptySectorUpdateCircuit and its
// Poseidon variant) counted against rust-fil-proofs' tests/circuit.rs and
// tests/circuit_poseidon.rs: 1,248,389 / 1,705,039 / 2,165,109 / 2,620,359 / 6,300,021 /
// 6,760,091 constraints for sectors of 1, 2, 4, 8, 16 and 32 KiB (tree_r 8-4, 8, 8-2, 8-4,
// 8-8, 8-8-2), 32,164 and 47,974 for the Poseidon variant at 1 and 8 KiB; 5 inputs with
// ONE. Only counts: the native side that would give an honest witness is not built yet.
#include <gtest/gtest.h>

#include "circuits/filecoin/update_circuit.hpp"
#include "r1cs/shape_system.hpp"

namespace zkpipe::filecoin {
namespace {

struct Counts {
  std::size_t inputs;
  std::size_t constraints;
};

Counts count(std::uint64_t nodes, const TreeShape& tree_r, UpdateHash variant) {
  const UpdateShape shape = update_shape(nodes, tree_r, variant);
  r1cs::ShapeSystem cs;
  synthesize_empty_sector_update(cs, shape, blank_update_partition(shape));
  return {cs.num_inputs(), cs.num_constraints()};
}

TEST(FilecoinUpdateCircuit, Sha256VariantCountsAreRustFilProofs) {
  const struct {
    std::uint64_t nodes;
    TreeShape tree_r;
    std::size_t constraints;
  } cases[] = {
      {32, {8, 4, 0}, 1'248'389},  {64, {8, 0, 0}, 1'705'039},  {128, {8, 2, 0}, 2'165'109},
      {256, {8, 4, 0}, 2'620'359}, {512, {8, 8, 0}, 6'300'021}, {1024, {8, 8, 2}, 6'760'091},
  };
  for (const auto& c : cases) {
    const Counts got = count(c.nodes, c.tree_r, UpdateHash::kSha256);
    EXPECT_EQ(got.inputs, 5u) << c.nodes << " nodes";
    EXPECT_EQ(got.constraints, c.constraints) << c.nodes << " nodes";
  }
}

TEST(FilecoinUpdateCircuit, PoseidonVariantCountsAreRustFilProofs) {
  EXPECT_EQ(count(32, {8, 4, 0}, UpdateHash::kPoseidon).constraints, 32'164u);
  EXPECT_EQ(count(256, {8, 4, 0}, UpdateHash::kPoseidon).constraints, 47'974u);
  EXPECT_EQ(count(256, {8, 4, 0}, UpdateHash::kPoseidon).inputs, 5u);
}

// The published 32 GiB sector: 22,305,906 constraints for the Poseidon variant and
// 81,049,499 for the SHA-256 one (rust-fil-proofs' ignored 32 GiB tests).
TEST(FilecoinUpdateCircuit, ThirtyTwoGiBCountsAreRustFilProofs) {
  EXPECT_EQ(count(std::uint64_t{1} << 30, {8, 8, 0}, UpdateHash::kPoseidon).constraints, 22'305'906u);
  EXPECT_EQ(count(std::uint64_t{1} << 30, {8, 8, 0}, UpdateHash::kSha256).constraints, 81'049'499u);
}

TEST(FilecoinUpdateCircuit, ShapesFollowTheSectorSize) {
  const UpdateShape small = update_shape(1024, {8, 8, 2}, UpdateHash::kSha256);
  EXPECT_EQ(small.partitions, 2u);
  EXPECT_EQ(small.challenge_count, 10u);
  EXPECT_EQ(small.apex_leaf_count, 128u);
  const UpdateShape big = update_shape(std::uint64_t{1} << 30, {8, 8, 0}, UpdateHash::kSha256);
  EXPECT_EQ(big.partitions, 16u);
  EXPECT_EQ(big.challenge_count, 86u);
  EXPECT_EQ(big.hs[3], 10u);
  const UpdateShape poseidon = update_shape(std::uint64_t{1} << 30, {8, 8, 0}, UpdateHash::kPoseidon);
  EXPECT_EQ(poseidon.partitions, 1u);
  EXPECT_EQ(poseidon.challenge_count, 1376u);
  EXPECT_THROW(update_shape(48, {8, 0, 0}, UpdateHash::kSha256), std::invalid_argument);
  UpdatePartition wrong = blank_update_partition(small);
  wrong.challenges.pop_back();
  r1cs::ShapeSystem cs;
  EXPECT_THROW(synthesize_empty_sector_update(cs, small, wrong), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::filecoin
