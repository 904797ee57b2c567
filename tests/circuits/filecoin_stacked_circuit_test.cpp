// Filecoin's PoRep circuit (one partition) on sectors sealed in memory, against
// rust-fil-proofs' storage-proofs-porep/tests/stacked_circuit.rs: 8 nodes per base
// tree, 2 layers, one interactive challenge, porep_id [44; 32], API version 1.1.0;
// 22 inputs (ONE included) and 1 206 212 / 1 199 620 / 1 296 576 / 1 346 982
// constraints for tree_c / tree_r_last shaped 2, 8, 8-4 and 8-4-2. The counts rest on
// the bellperson-exact SHA-256 and create_label gadgets (branch fcsha): 2 labels and
// 3 to 6 tree_d levels of SHA-256 are over 96 % of them.
#include <gtest/gtest.h>

#include <random>

#include "circuits/filecoin/core/seal_proof.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/porep/challenges.hpp"
#include "circuits/filecoin/porep/stacked_circuit.hpp"
#include "circuits/filecoin/porep/stacked_replica.hpp"
#include "r1cs/recording_system.hpp"
#include "r1cs/test_system.hpp"
#include "shape_checks.hpp"

namespace zkpipe::filecoin::porep {
namespace {

using r1cs::TestSystem;

constexpr std::size_t kLayers = 2;

core::PorepId arbitrary_porep_id() {
  core::PorepId id{};
  id.fill(44);
  return id;
}

std::size_t base_tree_count(const core::TreeShape& s) { return (s.sub == 0 ? 1 : s.sub) * (s.top == 0 ? 1 : s.top); }

// A sector of random data sealed with a random replica id, and partition 0's challenges
// drawn from a random seed, as the reference test sets it up.
struct Sealed {
  InMemoryReplica replica;
  std::vector<std::uint64_t> challenges;
};

std::vector<core::NodeBytes> random_nodes(std::mt19937_64& rng, std::size_t n) {
  std::vector<core::NodeBytes> nodes(n);
  for (core::NodeBytes& node : nodes) node = hashers::fr_to_domain(Fr::random(rng));
  return nodes;
}

Sealed seal(const core::TreeShape& shape, std::uint64_t seed, std::size_t challenges = 1) {
  std::mt19937_64 rng(seed);
  const std::uint64_t nodes = 8 * base_tree_count(shape);
  const ReplicaId replica_id = hashers::fr_to_domain(Fr::random(rng));
  std::vector<core::NodeBytes> data = random_nodes(rng, nodes);
  ChallengeSeed challenge_seed{};
  for (auto& b : challenge_seed) b = static_cast<std::uint8_t>(rng());
  InMemoryReplica replica(SdrGraph(nodes, arbitrary_porep_id(), core::ApiVersion::k1_1_0), kLayers, shape, replica_id,
                          std::move(data));
  std::vector<std::uint64_t> picked = interactive_challenges(nodes, replica_id, challenge_seed, challenges, 0);
  return Sealed{std::move(replica), std::move(picked)};
}

std::vector<Fr> allocated_inputs(const TestSystem& cs) { return {cs.inputs().begin() + 1, cs.inputs().end()}; }

struct ReferenceCase {
  core::TreeShape shape;
  std::size_t constraints;
};

class FilecoinStackedReference : public ::testing::TestWithParam<ReferenceCase> {};

TEST_P(FilecoinStackedReference, SatisfiedWithTheReferenceInputsAndConstraintCount) {
  const ReferenceCase& c = GetParam();
  const Sealed s = seal(c.shape, 1000 + c.shape.base + 10 * c.shape.sub + 100 * c.shape.top);
  const StackedCircuit circuit(s.replica.graph(), c.shape, {s.replica.prove_partition(s.challenges)});

  TestSystem cs;
  circuit.synthesize(cs, 0);
  ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  EXPECT_EQ(cs.num_inputs(), 22u);
  EXPECT_EQ(cs.num_constraints(), c.constraints);

  // The inputs the circuit allocates are those a verifier derives from the graph.
  const std::vector<Fr> expected = circuit.public_inputs(0);
  EXPECT_EQ(allocated_inputs(cs), expected);
  EXPECT_EQ(expected[0], hashers::domain_to_fr(s.replica.replica_id()));
  EXPECT_EQ(expected[1], hashers::domain_to_fr(s.replica.comm_d()));
  EXPECT_EQ(expected[2], s.replica.comm_r());
  EXPECT_EQ(expected[3], Fr::from_u64(s.challenges[0]));
}

INSTANTIATE_TEST_SUITE_P(Reference, FilecoinStackedReference,
                         ::testing::Values(ReferenceCase{{2, 0, 0}, 1'206'212}, ReferenceCase{{8, 0, 0}, 1'199'620},
                                           ReferenceCase{{8, 4, 0}, 1'296'576},
                                           ReferenceCase{{8, 4, 2}, 1'346'982}),
                         [](const auto& info) {
                           const core::TreeShape& s = info.param.shape;
                           return "base" + std::to_string(s.base) + "_sub" + std::to_string(s.sub) + "_top" +
                                  std::to_string(s.top);
                         });

// Each tampered element leaves the circuit unsatisfied, first at the constraint that
// checks it.
class FilecoinStackedTampering : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { sealed_ = std::make_unique<Sealed>(seal({8, 0, 0}, 77)); }
  static void TearDownTestSuite() { sealed_.reset(); }

  static StackedPartition honest() { return sealed_->replica.prove_partition(sealed_->challenges); }

  // Where the first unsatisfied constraint is, or "" when all hold.
  static std::string failure(const StackedPartition& p) {
    TestSystem cs;
    synthesize_stacked(cs, p, {8, 0, 0});
    return cs.which_is_unsatisfied().value_or("");
  }

  static std::unique_ptr<Sealed> sealed_;
};

std::unique_ptr<Sealed> FilecoinStackedTampering::sealed_;

TEST_F(FilecoinStackedTampering, HonestPartitionIsSatisfied) { EXPECT_EQ(failure(honest()), ""); }

TEST_F(FilecoinStackedTampering, CommR) {
  StackedPartition p = honest();
  p.comm_r += Fr::one();
  EXPECT_NE(failure(p).find("enforce comm_r = H(comm_c || comm_r_last)"), std::string::npos);
}

TEST_F(FilecoinStackedTampering, DataLeafAndTreeDSibling) {
  StackedPartition p = honest();
  p.challenges[0].data_leaf += Fr::one();
  EXPECT_NE(failure(p).find("comm_d_inclusion/enforce root is correct"), std::string::npos);
  p = honest();
  p.challenges[0].comm_d_path[1].hashes[0] += Fr::one();
  EXPECT_NE(failure(p).find("comm_d_inclusion/enforce root is correct"), std::string::npos);
}

TEST_F(FilecoinStackedTampering, ParentColumnValues) {
  StackedPartition p = honest();
  p.challenges[0].drg_parents[2].labels[1] += Fr::one();
  EXPECT_NE(failure(p).find("drg_parent_inclusion 2/enforce root is correct"), std::string::npos);
  p = honest();
  p.challenges[0].exp_parents[7].labels[0] += Fr::one();
  EXPECT_NE(failure(p).find("exp_parent_inclusion 7/enforce root is correct"), std::string::npos);
}

TEST_F(FilecoinStackedTampering, TreeCAndTreeRLastSiblings) {
  StackedPartition p = honest();
  p.challenges[0].exp_parents[0].path[0].hashes[6] += Fr::one();
  EXPECT_NE(failure(p).find("exp_parent_inclusion 0/enforce root is correct"), std::string::npos);
  p = honest();
  p.challenges[0].comm_c_path[0].hashes[3] += Fr::one();
  EXPECT_NE(failure(p).find("c_x_inclusion/enforce root is correct"), std::string::npos);
  p = honest();
  p.challenges[0].comm_r_last_path[0].hashes[0] += Fr::one();
  EXPECT_NE(failure(p).find("comm_r_last_data_inclusion/enforce root is correct"), std::string::npos);
}

// A sector sealed with one forged label of the challenged node, its trees built over
// the forgery: the circuit's label (from the parents) disagrees with the committed one.
TEST_F(FilecoinStackedTampering, ForgedLabels) {
  const InMemoryReplica& r = sealed_->replica;
  const std::uint64_t node = sealed_->challenges[0];
  for (const std::size_t layer : {std::size_t{0}, kLayers - 1}) {
    std::vector<LabelLayer> labels = r.labels();
    labels[layer][node][0] ^= 1;
    const InMemoryReplica forged =
        InMemoryReplica::with_labels(r.graph(), r.tree_shape(), r.replica_id(), r.data(), std::move(labels));
    const std::string where = failure(forged.prove_partition(sealed_->challenges));
    // The last layer's label is the encoding key: tree_r_last disagrees first.
    const char* expected =
        layer + 1 == kLayers ? "comm_r_last_data_inclusion/enforce root is correct" : "c_x_inclusion/enforce root";
    EXPECT_NE(where.find(expected), std::string::npos) << "layer " << layer + 1 << ": " << where;
  }
}

// The proof of one node presented as another's: its labels are recomputed for the
// claimed node and no longer match its column.
TEST_F(FilecoinStackedTampering, ChallengeIndex) {
  StackedPartition p = honest();
  p.challenges[0].node ^= 1;
  EXPECT_NE(failure(p), "");
}

TEST(FilecoinStackedCircuit, ValuesOnlyWitnessEqualsTheFullSynthesis) {
  const Sealed s = seal({8, 0, 0}, 5, 2);
  const StackedCircuit circuit(s.replica.graph(), {8, 0, 0}, {s.replica.prove_partition(s.challenges)});
  TestSystem full;
  circuit.synthesize(full, 0);
  const r1cs::WitnessValues values = circuit.synthesize_values(0);
  EXPECT_EQ(values.inputs, full.inputs());
  EXPECT_EQ(values.aux.expand(), full.aux());
  r1cs::RecordingSystem recorded;
  circuit.synthesize(recorded, 0);
  EXPECT_EQ(recorded.num_constraints(), full.num_constraints());
  EXPECT_EQ(recorded.num_inputs(), 3 + 2 * 18 + 1u);
  EXPECT_EQ(recorded.num_aux(), full.num_aux());
}

// The compiled form and the counts from the commitments and one challenge, its
// copies appended, equal the plain synthesis (tests/circuits/shape_checks.hpp).
TEST(FilecoinStackedCircuit, ShapeFromOneChallengeEqualsTheSynthesis) {
  const Sealed s = seal({8, 0, 0}, 5, 2);
  const StackedCircuit circuit(s.replica.graph(), {8, 0, 0}, {s.replica.prove_partition(s.challenges)});
  ASSERT_GT(circuit.assignments()[0].challenges.size(), 1u);
  zkpipe::testing::expect_shape_equals_synthesis(circuit, 0);
}

TEST(FilecoinStackedCircuit, SeveralPartitionsAndChallenges) {
  const Sealed s = seal({8, 4, 0}, 9, 2);
  const std::vector<std::uint64_t> second{1, 31};
  const StackedCircuit circuit(s.replica.graph(), {8, 4, 0},
                               {s.replica.prove_partition(s.challenges), s.replica.prove_partition(second)});
  ASSERT_EQ(circuit.partitions(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    TestSystem cs;
    circuit.synthesize(cs, k);
    ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
    EXPECT_EQ(cs.num_inputs(), 1 + 3 + 2 * 18u);
    EXPECT_EQ(allocated_inputs(cs), circuit.public_inputs(k));
  }
  EXPECT_THROW(circuit.public_inputs(2), std::out_of_range);
}

// A 2 KiB sector as StackedDrg2KiBV1_1 seals it (its porep_id, 2 layers, tree 8-0-0,
// one partition of 2 interactive challenges): the whole partition circuit.
TEST(FilecoinStackedCircuit, TwoKiBSealProofPartition) {
  const core::SealProof& proof = core::seal_proof("StackedDrg2KiBV1_1");
  const core::SectorShape& shape = proof.shape();
  std::mt19937_64 rng(2048);
  const ReplicaId replica_id = hashers::fr_to_domain(Fr::random(rng));
  const core::TreeShape tree{shape.base_arity, shape.sub_arity, shape.top_arity};
  const InMemoryReplica replica(SdrGraph(shape.nodes(), proof.porep_id(), proof.api_version), shape.layers, tree,
                                replica_id, random_nodes(rng, shape.nodes()));
  ChallengeSeed seed{};
  for (auto& b : seed) b = static_cast<std::uint8_t>(rng());
  ASSERT_EQ(proof.partitions(), 1u);
  const std::vector<std::uint64_t> challenges = porep_challenges(proof, replica_id, seed, {}, 0);
  ASSERT_EQ(challenges.size(), 2u);
  const StackedCircuit circuit(replica.graph(), tree, {replica.prove_partition(challenges)});
  TestSystem cs;
  circuit.synthesize(cs, 0);
  ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  EXPECT_EQ(cs.num_inputs(), 1 + 3 + 2 * 18u);
  EXPECT_EQ(allocated_inputs(cs), circuit.public_inputs(0));
}

TEST(FilecoinStackedCircuit, RejectsMalformedProofs) {
  const Sealed s = seal({8, 0, 0}, 3);
  const StackedPartition honest = s.replica.prove_partition(s.challenges);
  TestSystem cs;
  StackedPartition p = honest;
  p.challenges[0].exp_parents.pop_back();
  EXPECT_THROW(synthesize_stacked(cs, p, {8, 0, 0}), std::invalid_argument);
  p = honest;
  p.challenges[0].drg_parents[4].labels.push_back(Fr::one());
  EXPECT_THROW(synthesize_stacked(cs, p, {8, 0, 0}), std::invalid_argument);
  p = honest;
  for (auto& col : p.challenges[0].drg_parents) col.labels.push_back(Fr::one());
  for (auto& col : p.challenges[0].exp_parents) col.labels.push_back(Fr::one());
  EXPECT_THROW(synthesize_stacked(cs, p, {8, 0, 0}), std::invalid_argument);  // 3 layers
  EXPECT_THROW(StackedCircuit(s.replica.graph(), {8, 0, 0}, {}), std::invalid_argument);
  p = honest;
  p.challenges[0].node = 8;
  EXPECT_THROW(StackedCircuit(s.replica.graph(), {8, 0, 0}, {p}), std::invalid_argument);
  EXPECT_THROW(InMemoryReplica(s.replica.graph(), 3, {8, 0, 0}, s.replica.replica_id(), s.replica.data()),
               std::invalid_argument);
  std::vector<core::NodeBytes> not_fr = s.replica.data();
  not_fr[5].fill(0xff);
  EXPECT_THROW(InMemoryReplica(s.replica.graph(), 2, {8, 0, 0}, s.replica.replica_id(), not_fr),
               std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::filecoin::porep
