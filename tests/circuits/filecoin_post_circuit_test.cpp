// Filecoin's PoSt circuit (storage-proofs-post's FallbackPoStCircuit) against
// rust-fil-proofs' storage-proofs-post/tests/fallback_circuit.rs: 64 leaves a base
// tree, 5 challenges a sector, API 1.1; 3 sectors give 19 inputs (ONE included) and
// 16,869 / 22,674 / 27,384 constraints for trees 8, 8-4 and 8-4-2; 2 sectors of the
// tree 8, 13 inputs and 11,246. Then the published proofs' shapes: filecoin-proofs'
// constants.rs states 125,279,217 constraints for a 32 GiB Window PoSt partition (2349
// sectors) and 129,887,900 for 64 GiB (2300); the other sizes' counts follow from the
// same per-gadget costs. An honest synthetic partition satisfies every constraint and
// gives the inputs a verifier derives; each tampered value breaks it.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "circuits/filecoin/post/post_circuit.hpp"
#include "circuits/filecoin/post/post_proof.hpp"
#include "circuits/filecoin/synthetic/synthetic_post.hpp"
#include "r1cs/shape_system.hpp"
#include "r1cs/test_system.hpp"
#include "r1cs/witness_system.hpp"
#include "shape_checks.hpp"

namespace zkpipe::filecoin::post {
namespace {

using r1cs::TestSystem;

struct Counts {
  std::size_t inputs;
  std::size_t constraints;
};

Counts count(const FallbackPostCircuit& circuit) {
  r1cs::ShapeSystem cs;
  circuit.synthesize(cs, 0);
  return {cs.num_inputs(), cs.num_constraints()};
}

std::uint64_t leaves_of(const core::TreeShape& s) { return 64 * (s.sub == 0 ? 1 : s.sub) * (s.top == 0 ? 1 : s.top); }

TEST(FilecoinPostCircuit, CountsAreRustFilProofsFallbackCircuits) {
  const struct {
    core::TreeShape shape;
    std::size_t sectors;
    Counts expected;
  } cases[] = {
      {{8, 0, 0}, 3, {19, 16'869}},
      {{8, 4, 0}, 3, {19, 22'674}},
      {{8, 4, 2}, 3, {19, 27'384}},
      {{8, 0, 0}, 2, {13, 11'246}},
  };
  for (const auto& c : cases) {
    const Counts got = count(fallback_post_shape("test", leaves_of(c.shape), c.shape, c.sectors, 5));
    EXPECT_EQ(got.inputs, c.expected.inputs) << c.shape.base << "-" << c.shape.sub << "-" << c.shape.top;
    EXPECT_EQ(got.constraints, c.expected.constraints) << c.shape.base << "-" << c.shape.sub << "-" << c.shape.top;
  }
}

// A partition is its sectors one after the other: two sectors count twice one, so the
// 2349- and 2300-sector partitions are counted from one sector of their shape.
TEST(FilecoinPostCircuit, PublishedProofsHaveTheirCounts) {
  constexpr std::uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;
  const struct {
    PostKind kind;
    std::uint64_t bytes;
    Counts expected;  // inputs with ONE
  } cases[] = {
      {PostKind::kWindow, 2 * KiB, {23, 21'866}},           {PostKind::kWinning, 2 * KiB, {133, 90'750}},
      {PostKind::kWindow, 8 * MiB, {23, 64'266}},           {PostKind::kWinning, 8 * MiB, {133, 230'670}},
      {PostKind::kWindow, 512 * MiB, {23, 85'466}},         {PostKind::kWinning, 512 * MiB, {133, 300'630}},
      {PostKind::kWindow, 32 * GiB, {25'840, 125'279'217}}, {PostKind::kWinning, 32 * GiB, {133, 370'590}},
      {PostKind::kWindow, 64 * GiB, {25'301, 129'887'900}}, {PostKind::kWinning, 64 * GiB, {133, 391'314}},
  };
  for (const auto& c : cases) {
    const PostProof proof = post_proof(c.kind, c.bytes);
    auto shape = [&](std::size_t sectors) {
      return count(fallback_post_shape(proof.name(), proof.leaves(), proof.tree_shape(), sectors, proof.challenge_count));
    };
    const Counts one = shape(1);
    const Counts two = shape(2);
    EXPECT_EQ(two.constraints, 2 * one.constraints) << proof.name();
    EXPECT_EQ(two.inputs - 1, 2 * (one.inputs - 1)) << proof.name();
    EXPECT_EQ(1 + proof.sector_count * (one.inputs - 1), c.expected.inputs) << proof.name();
    EXPECT_EQ(proof.sector_count * one.constraints, c.expected.constraints) << proof.name();
  }
}

std::vector<Fr> allocated_inputs(const TestSystem& cs) { return {cs.inputs().begin() + 1, cs.inputs().end()}; }

TEST(FilecoinPostCircuit, SyntheticPartitionsSatisfyTheCircuitAndTamperingBreaksIt) {
  for (const PostKind kind : {PostKind::kWindow, PostKind::kWinning}) {
    const PostProof proof = post_proof(kind, 2 * 1024);
    const std::size_t partitions = kind == PostKind::kWindow ? 2 : 1;
    const FallbackPostCircuit circuit = synthetic::synthetic_post(proof, 7, partitions);
    ASSERT_EQ(circuit.partitions(), partitions);
    for (std::size_t k = 0; k < partitions; ++k) {
      TestSystem cs;
      circuit.synthesize(cs, k);
      ASSERT_TRUE(cs.is_satisfied()) << proof.name() << " partition " << k << ": " << *cs.which_is_unsatisfied();
      EXPECT_EQ(allocated_inputs(cs), circuit.public_inputs(k)) << proof.name();
      EXPECT_EQ(cs.num_inputs(), 1 + proof.sector_count * (1 + proof.challenge_count));
    }
  }

  const PostProof window = post_proof(PostKind::kWindow, 2 * 1024);
  const FallbackPostCircuit honest = synthetic::synthetic_post(window, 9, 1);
  auto satisfied_with = [&](auto&& tamper) {
    PostPartition p = honest.assignments()[0];
    tamper(p);
    TestSystem cs;
    synthesize_fallback_post(cs, p, window.tree_shape());
    return cs.is_satisfied();
  };
  EXPECT_TRUE(satisfied_with([](PostPartition&) {}));
  EXPECT_FALSE(satisfied_with([](PostPartition& p) { p.sectors[1].challenges[3].leaf += Fr::one(); }));
  EXPECT_FALSE(satisfied_with([](PostPartition& p) { p.sectors[0].challenges[0].path[0].hashes[2] += Fr::one(); }));
  EXPECT_FALSE(satisfied_with([](PostPartition& p) { p.sectors[0].comm_r += Fr::one(); }));
  EXPECT_FALSE(satisfied_with([](PostPartition& p) { p.sectors[1].comm_c += Fr::one(); }));
  EXPECT_FALSE(satisfied_with([](PostPartition& p) { p.sectors[1].comm_r_last += Fr::one(); }));
}

// The sectors synthesized on all cores give the assignment one serial synthesis does,
// inputs and aux in the same order (a Winning proof: 66 sectors; a Window partition of
// a tree with sub levels).
TEST(FilecoinPostCircuit, ValuesOnAllCoresEqualTheSerialSynthesis) {
  for (const PostProof& proof : {post_proof(PostKind::kWinning, 2048), post_proof(PostKind::kWindow, 8 << 20)}) {
    const FallbackPostCircuit circuit = synthetic::synthetic_post(proof, 17, 1);
    r1cs::WitnessSystem serial;
    circuit.synthesize(serial, 0);
    const r1cs::WitnessValues values = circuit.synthesize_values(0);
    EXPECT_EQ(values.inputs, serial.inputs()) << proof.name();
    EXPECT_EQ(values.aux.expand(), serial.aux_values()) << proof.name();
    // With the sizes as hints, as the engine's pce path passes them (the Winning
    // PoSt's 66 sectors take several blocks of segments, reused).
    const r1cs::WitnessValues hinted = circuit.synthesize_values(0, serial.num_inputs(), serial.num_aux());
    EXPECT_EQ(hinted.inputs, serial.inputs()) << proof.name();
    EXPECT_EQ(hinted.aux.expand(), serial.aux_values()) << proof.name();
  }
}

// The bound the engine reserves for a partition's wide values holds them all, and is
// no looser than a tenth: nearly every value of the witness is a field element.
TEST(FilecoinPostCircuit, WideAuxBoundHoldsTheWitnessesWideValues) {
  for (const PostProof& proof : {post_proof(PostKind::kWinning, 2048), post_proof(PostKind::kWindow, 8 << 20)}) {
    const FallbackPostCircuit circuit = synthetic::synthetic_post(proof, 5, 1);
    const r1cs::WitnessValues values = circuit.synthesize_values(0);
    const std::size_t aux = values.aux.size();
    const std::size_t wide = values.aux.wide_values().size();
    EXPECT_LE(wide, circuit.wide_aux_bound(aux)) << proof.name();
    EXPECT_GE(wide, circuit.wide_aux_bound(aux) * 9 / 10) << proof.name();
  }
}

// The compiled form and the counts from one sector and its copies equal the sectors
// synthesized one after the other (tests/circuits/shape_checks.hpp).
TEST(FilecoinPostCircuit, ShapeFromOneSectorEqualsTheSynthesis) {
  for (const PostProof& proof : {post_proof(PostKind::kWinning, 2048), post_proof(PostKind::kWindow, 8 << 20)}) {
    SCOPED_TRACE(proof.name());
    zkpipe::testing::expect_shape_equals_synthesis(synthetic::synthetic_post(proof, 17, 1), 0);
  }
}

TEST(FilecoinPostChallenges, IndexesFollowTheApiVersionAndLeavesStayInTheTree) {
  EXPECT_EQ(post_challenge_index(core::ApiVersion::k1_1_0, 3, 10, 4), 34u);
  EXPECT_EQ(post_challenge_index(core::ApiVersion::k1_0_0, 3, 10, 4), 34u);
  EXPECT_EQ(post_challenge_index(core::ApiVersion::k1_2_0, 3, 10, 4), 4u);
  PostRandomness randomness{};
  randomness[0] = 1;
  std::set<std::uint64_t> seen;
  for (std::uint64_t i = 0; i < 64; ++i) {
    const std::uint64_t leaf = post_leaf_challenge(randomness, 42, i, 64);
    EXPECT_LT(leaf, 64u);
    EXPECT_EQ(leaf, post_leaf_challenge(randomness, 42, i, 64));
    seen.insert(leaf);
  }
  EXPECT_GT(seen.size(), 20u);  // drawn, not constant
  EXPECT_NE(post_leaf_challenge(randomness, 42, 0, std::uint64_t{1} << 30),
            post_leaf_challenge(randomness, 43, 0, std::uint64_t{1} << 30));
  EXPECT_THROW(post_proof(PostKind::kWindow, 4096), std::invalid_argument);
  EXPECT_THROW(synthetic::synthetic_post(post_proof(PostKind::kWinning, 2048), 1, 2), std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::filecoin::post
