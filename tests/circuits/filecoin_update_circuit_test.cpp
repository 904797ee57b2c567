// Filecoin's SnapDeals circuit (storage-proofs-update's EmptySectorUpdateCircuit and its
// Poseidon variant) counted against rust-fil-proofs' tests/circuit.rs and
// tests/circuit_poseidon.rs: 1,248,389 / 1,705,039 / 2,165,109 / 2,620,359 / 6,300,021 /
// 6,760,091 constraints for sectors of 1, 2, 4, 8, 16 and 32 KiB (tree_r 8-4, 8, 8-2, 8-4,
// 8-8, 8-8-2), 32,164 and 47,974 for the Poseidon variant at 1 and 8 KiB; 5 inputs with
// ONE. Then an update made as rust-fil-proofs makes one (synthetic_update.hpp) satisfies
// every partition with the inputs a verifier derives, and each tampered value breaks it.
#include <gtest/gtest.h>

#include "circuits/filecoin/synthetic/synthetic_update.hpp"
#include "circuits/filecoin/update/update_circuit.hpp"
#include "r1cs/shape_system.hpp"
#include "r1cs/test_system.hpp"

namespace zkpipe::filecoin::update {
namespace {

struct Counts {
  std::size_t inputs;
  std::size_t constraints;
};

Counts count(std::uint64_t nodes, const core::TreeShape& tree_r, UpdateHash variant) {
  const UpdateShape shape = update_shape(nodes, tree_r, variant);
  r1cs::ShapeSystem cs;
  synthesize_empty_sector_update(cs, shape, blank_update_partition(shape));
  return {cs.num_inputs(), cs.num_constraints()};
}

TEST(FilecoinUpdateCircuit, Sha256VariantCountsAreRustFilProofs) {
  const struct {
    std::uint64_t nodes;
    core::TreeShape tree_r;
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

void expect_satisfied_and_tamper_evident(const UpdateShape& shape, bool empty = false) {
  const synthetic::SyntheticUpdate update =
      empty ? synthetic::synthetic_empty_update(shape, 5) : synthetic::synthetic_update(shape, 5);
  ASSERT_EQ(update.partitions.size(), shape.variant == UpdateHash::kSha256 ? shape.partitions : 1u);
  for (const UpdatePartition& p : update.partitions) {
    r1cs::TestSystem cs;
    synthesize_empty_sector_update(cs, shape, p);
    ASSERT_TRUE(cs.is_satisfied()) << shape.nodes << " nodes, partition " << p.k << ": " << *cs.which_is_unsatisfied();
    EXPECT_EQ(std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end()), update_public_inputs(shape, p));
  }
  auto satisfied_with = [&](auto&& tamper) {
    UpdatePartition p = update.partitions.back();
    tamper(p);
    r1cs::TestSystem cs;
    synthesize_empty_sector_update(cs, shape, p);
    return cs.is_satisfied();
  };
  EXPECT_FALSE(satisfied_with([](UpdatePartition& p) { p.challenges[2].leaf_d_new += Fr::one(); }));
  EXPECT_FALSE(satisfied_with([](UpdatePartition& p) { p.challenges[1].leaf_r_old += Fr::one(); }));
  EXPECT_FALSE(satisfied_with([](UpdatePartition& p) { p.challenges[0].path_r_new[0].hashes[0] += Fr::one(); }));
  EXPECT_FALSE(satisfied_with([](UpdatePartition& p) { p.comm_r_new += Fr::one(); }));
  EXPECT_FALSE(satisfied_with([](UpdatePartition& p) { p.comm_c += Fr::one(); }));
  if (shape.variant == UpdateHash::kSha256) {
    EXPECT_FALSE(satisfied_with([](UpdatePartition& p) { p.apex_leaves[5] += Fr::one(); }));
  }
}

TEST(FilecoinUpdateCircuit, APoseidonUpdateSatisfiesTheCircuitAndTamperingBreaksIt) {
  expect_satisfied_and_tamper_evident(update_shape(256, {8, 4, 0}, UpdateHash::kPoseidon));
}

// The update made without holding the sector (for 32 GiB benchmarks), on small shapes
// where the circuit can be checked: both variants, two partitions for SHA-256.
TEST(FilecoinUpdateCircuit, AnEmptyUpdateOfAnySizeSatisfiesTheCircuit) {
  expect_satisfied_and_tamper_evident(update_shape(256, {8, 4, 0}, UpdateHash::kPoseidon), true);
  const UpdateShape sha = update_shape(512, {8, 8, 0}, UpdateHash::kSha256);
  const synthetic::SyntheticUpdate update = synthetic::synthetic_empty_update(sha, 3);
  ASSERT_EQ(update.partitions.size(), 2u);
  for (const UpdatePartition& p : update.partitions) {
    r1cs::TestSystem cs;
    synthesize_empty_sector_update(cs, sha, p);
    EXPECT_TRUE(cs.is_satisfied()) << "partition " << p.k << ": " << *cs.which_is_unsatisfied();
    EXPECT_EQ(std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end()), update_public_inputs(sha, p));
  }
}

TEST(FilecoinUpdateCircuit, ASha256UpdateSatisfiesTheCircuitAndTamperingBreaksIt) {
  expect_satisfied_and_tamper_evident(update_shape(64, {8, 0, 0}, UpdateHash::kSha256));
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

// The Poseidon variant's witness is nearly all field elements and declares every
// value wide, as the engine then reserves; the SHA-256 variant's is nearly all bits
// and declares none.
TEST(FilecoinUpdateCircuit, WideAuxBoundHoldsTheWitnessesWideValues) {
  const UpdateShape poseidon = update_shape(256, {8, 4, 0}, UpdateHash::kPoseidon);
  const UpdateShape sha = update_shape(512, {8, 8, 0}, UpdateHash::kSha256);
  for (const UpdateShape& shape : {poseidon, sha}) {
    const EmptySectorUpdateCircuit circuit("update", shape, synthetic::synthetic_update(shape, 5).partitions);
    const r1cs::WitnessValues values = circuit.synthesize_values(0);
    const std::size_t aux = values.aux.size();
    const std::size_t wide = values.aux.wide_values().size();
    if (shape.variant == UpdateHash::kPoseidon) {
      EXPECT_EQ(circuit.wide_aux_bound(aux), aux);
      EXPECT_GE(wide, aux * 9 / 10);
    } else {
      EXPECT_EQ(circuit.wide_aux_bound(aux), 0u);
      EXPECT_LT(wide, aux / 50);
    }
  }
}

}  // namespace
}  // namespace zkpipe::filecoin::update
