#include <gtest/gtest.h>

#include <set>

#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/porep_like/porep_circuit.hpp"
#include "circuits/porep_like/sparse_trees.hpp"
#include "hash/merkle.hpp"
#include "r1cs/proving_assignment.hpp"
#include "r1cs/shape_system.hpp"
#include "r1cs/test_system.hpp"

namespace zkpipe::porep_like {
namespace {

TEST(PorepPreset, UnknownNameListsTheKnownOnes) {
  try {
    find_preset("huge");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("tiny"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("2e27"), std::string::npos);
  }
}

// Preset 2eN has at most 2^N constraints, the Groth16 input constraints included, so
// that its domain is 2^N (tiny's is 2^12). (2e27, 24 s to count, is checked by `zkpipe circuit info`.)
TEST(PorepPreset, EachPresetFitsTheDomainItsNameGives) {
  for (auto [name, log_n] :
       {std::pair{"tiny", 12}, std::pair{"2e16", 16}, std::pair{"2e20", 20}, std::pair{"2e24", 24}}) {
    const PorepLikeCircuit circuit(find_preset(name), 1, 1);
    r1cs::ShapeSystem shape;
    circuit.synthesize(shape, 0);
    const std::size_t constraints = shape.num_constraints() + shape.num_inputs();  // input constraints
    EXPECT_LE(constraints, std::size_t{1} << log_n) << name;
    EXPECT_GT(constraints, std::size_t{1} << (log_n - 1)) << name << " would fit a smaller domain";
  }
}

TEST(SparseTrees, PathsOfEveryOpenedLeafReachTheSharedRoot) {
  std::map<std::uint64_t, Node> sha_leaves;
  std::map<std::uint64_t, ff::Fr> poseidon_leaves;
  for (std::uint64_t i : {3u, 4u, 60u, 511u}) {
    Node n{};
    n[0] = static_cast<std::uint8_t>(i);
    sha_leaves[i] = n;
    poseidon_leaves[i] = ff::Fr::from_u64(i * 7 + 1);
  }
  auto sha_fill = [](std::size_t level, std::uint64_t index) {
    Node n{};
    n[1] = static_cast<std::uint8_t>(level);
    n[2] = static_cast<std::uint8_t>(index);
    return n;
  };
  SparseSha256Tree sha(9, sha_leaves, sha_fill);
  SparsePoseidonTree pos(3, poseidon_leaves,
                         [](std::size_t l, std::uint64_t i) { return ff::Fr::from_u64(1000 * l + i); });
  for (const auto& [i, leaf] : sha_leaves) {
    EXPECT_EQ(hash::merkle::sha256_root_from_path(leaf, sha.path(i)), sha.root());
    EXPECT_EQ(filecoin::core::root_from_path(poseidon_leaves[i], pos.path(i)), pos.root());
  }
  Node wrong = sha_leaves[3];
  wrong[5] ^= 1;
  EXPECT_NE(hash::merkle::sha256_root_from_path(wrong, sha.path(3)), sha.root());
}

TEST(SparseTrees, MatchTheFullTreeWhenEveryLeafIsOpened) {
  std::vector<ff::Fr> all;
  std::map<std::uint64_t, ff::Fr> opened;
  for (std::uint64_t i = 0; i < 64; ++i) {
    all.push_back(ff::Fr::from_u64(i + 5));
    opened[i] = all.back();
  }
  SparsePoseidonTree sparse(2, opened, [](std::size_t, std::uint64_t) -> ff::Fr { throw std::logic_error("no fill"); });
  const filecoin::core::PoseidonTree full(all, filecoin::core::TreeShape{8, 0, 0});
  EXPECT_EQ(sparse.root(), full.root());
  for (std::uint64_t i : {0u, 9u, 63u}) {
    const filecoin::core::PoseidonPath sparse_path = sparse.path(i);
    const filecoin::core::PoseidonPath full_path = full.path(i);
    ASSERT_EQ(sparse_path.size(), full_path.size());
    for (std::size_t level = 0; level < full_path.size(); ++level) {
      EXPECT_EQ(sparse_path[level].index, full_path[level].index);
      EXPECT_EQ(sparse_path[level].hashes, full_path[level].hashes);
    }
  }
}

class PorepCircuit : public ::testing::TestWithParam<const char*> {};

TEST_P(PorepCircuit, EveryPartitionIsSatisfiedAndExposesItsPublicInputs) {
  PorepLikeCircuit circuit(find_preset(GetParam()), 11, 3);
  std::set<std::vector<std::uint64_t>> distinct_challenges;
  for (std::size_t p = 0; p < circuit.partitions(); ++p) {
    r1cs::TestSystem ts;
    circuit.synthesize(ts, p);
    EXPECT_EQ(ts.which_is_unsatisfied(), std::nullopt) << "partition " << p;
    r1cs::ProvingAssignment pa;
    circuit.synthesize(pa, p);
    std::vector<ff::Fr> expected = circuit.public_inputs(p);
    ASSERT_EQ(pa.inputs().size(), expected.size() + 1);
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(pa.inputs()[i + 1], expected[i]) << "input " << i;
    std::vector<std::uint64_t> challenges;
    for (std::size_t j = 0; j < find_preset(GetParam()).challenges; ++j) challenges.push_back(circuit.challenge(p, j));
    distinct_challenges.insert(challenges);
  }
  EXPECT_GT(distinct_challenges.size(), 1u);
  // Replica id, comm_d and comm_r are the sector's: equal across partitions.
  auto a = circuit.public_inputs(0);
  auto b = circuit.public_inputs(2);
  EXPECT_TRUE(std::equal(a.begin(), a.begin() + 3, b.begin()));
}

TEST_P(PorepCircuit, ShapeDoesNotDependOnSeedOrPartition) {
  PorepLikeCircuit one(find_preset(GetParam()), 1, 2);
  PorepLikeCircuit other(find_preset(GetParam()), 99, 2);
  r1cs::ProvingAssignment x;
  r1cs::ProvingAssignment y;
  one.synthesize(x, 0);
  other.synthesize(y, 1);
  EXPECT_EQ(x.num_constraints(), y.num_constraints());
  EXPECT_EQ(x.num_aux(), y.num_aux());
  EXPECT_EQ(x.b_aux_density().words(), y.b_aux_density().words());
}

// The values-only synthesis (word-level SHA-256, native Poseidon, challenges on all
// cores) must give the recording synthesis's assignment exactly.
TEST_P(PorepCircuit, ValuesOnlySynthesisGivesTheSameAssignment) {
  PorepLikeCircuit circuit(find_preset(GetParam()), 4, 2);
  r1cs::ProvingAssignment pa;
  circuit.synthesize(pa, 1);
  const r1cs::WitnessValues values = circuit.synthesize_values(1);
  EXPECT_EQ(values.inputs, pa.inputs());
  EXPECT_EQ(values.aux.expand(), pa.aux());
}

INSTANTIATE_TEST_SUITE_P(Presets, PorepCircuit, ::testing::Values("tiny", "2e16"));

TEST(PorepCircuitErrors, CorruptedWitnessNamesTheFailingConstraint) {
  PorepLikeCircuit circuit(find_preset("tiny"), 5, 1);
  r1cs::TestSystem ts;
  circuit.synthesize(ts, 0);
  ts.set_aux(r1cs::Variable::aux(static_cast<std::uint32_t>(ts.num_aux() / 2)), ff::Fr::from_u64(12345));
  auto failure = ts.which_is_unsatisfied();
  ASSERT_TRUE(failure.has_value());
  EXPECT_NE(failure->find("porep/challenge"), std::string::npos) << *failure;
}

TEST(PorepCircuitErrors, BadPresetOrPartitionRejected) {
  Preset bad = find_preset("tiny");
  bad.layers = 12;
  EXPECT_THROW(PorepLikeCircuit(bad, 1, 1), std::invalid_argument);
  EXPECT_THROW(PorepLikeCircuit(find_preset("tiny"), 1, 0), std::invalid_argument);
  PorepLikeCircuit ok(find_preset("tiny"), 1, 2);
  EXPECT_THROW(ok.public_inputs(2), std::out_of_range);
}

}  // namespace
}  // namespace zkpipe::porep_like
