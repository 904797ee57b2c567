// Filecoin's insertion and PoR gadgets against rust-fil-proofs' own tests
// (storage-proofs-core gadgets/insertion.rs test_select/test_insert, tests/por_circuit.rs):
// their constraint and input counts, and inclusion of native trees' leaves.
#include <gtest/gtest.h>

#include <random>

#include "circuits/filecoin/core/insertion_gadget.hpp"
#include "circuits/filecoin/core/por_gadget.hpp"
#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "circuits/filecoin/porep/stacked_replica.hpp"
#include "r1cs/test_system.hpp"
#include "r1cs/witness_system.hpp"

namespace zkpipe::filecoin::core {
namespace {

using gadgets::AllocatedNum;
using gadgets::Boolean;
using r1cs::TestSystem;

std::vector<Boolean> alloc_index(TestSystem& cs, std::size_t index, std::size_t bits) {
  std::vector<Boolean> out;
  for (std::size_t b = 0; b < bits; ++b) out.push_back(Boolean::alloc(cs, ((index >> b) & 1) != 0));
  return out;
}

// test_select: log2(size) constraints for the index bits, then size − 1 picks.
TEST(FilecoinInsertion, SelectPicksTheIndexedElementWithSizeMinusOneConstraints) {
  std::mt19937_64 rng(1);
  for (std::size_t log_size = 1; log_size < 5; ++log_size) {
    const std::size_t size = std::size_t{1} << log_size;
    for (std::size_t index = 0; index < size; ++index) {
      TestSystem cs;
      std::vector<AllocatedNum> elements;
      for (std::size_t i = 0; i < size; ++i) elements.push_back(AllocatedNum::alloc(cs, Fr::random(rng)));
      const auto bits = alloc_index(cs, index, log_size);
      ASSERT_EQ(cs.num_constraints(), log_size);
      const AllocatedNum selected = select(cs, elements, bits);
      EXPECT_EQ(cs.num_constraints() - log_size, size - 1);
      EXPECT_EQ(selected.value(), elements[index].value());
      EXPECT_TRUE(cs.is_satisfied());
    }
  }
}

// test_insert: 2 constraints for 2 children, 8 for 4, 22 for 8, size·(size − 1) for 16.
TEST(FilecoinInsertion, InsertPlacesTheElementWithTheReferenceCounts) {
  std::mt19937_64 rng(2);
  for (std::size_t log_size = 1; log_size <= 4; ++log_size) {
    const std::size_t size = std::size_t{1} << log_size;
    const std::size_t expected = size == 8 ? 22 : size == 4 ? 8 : size * (size - 1);
    for (std::size_t index = 0; index < size; ++index) {
      TestSystem cs;
      const AllocatedNum x = AllocatedNum::alloc(cs, Fr::random(rng));
      std::vector<AllocatedNum> elements;
      for (std::size_t i = 0; i + 1 < size; ++i) elements.push_back(AllocatedNum::alloc(cs, Fr::random(rng)));
      const auto bits = alloc_index(cs, index, log_size);
      const std::vector<AllocatedNum> inserted = insert(cs, x, bits, elements);
      EXPECT_EQ(cs.num_constraints() - log_size, expected) << "size " << size;
      ASSERT_EQ(inserted.size(), size);
      for (std::size_t pos = 0; pos < size; ++pos) {
        const Fr& want = pos < index ? elements[pos].value() : pos == index ? x.value() : elements[pos - 1].value();
        EXPECT_EQ(inserted[pos].value(), want) << "size " << size << " index " << index << " pos " << pos;
      }
      EXPECT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
      // A result other than the selected one breaks its pick.
      cs.set_aux(inserted[index].var(), x.value() + Fr::one());
      EXPECT_FALSE(cs.is_satisfied());
    }
  }
}

TEST(FilecoinInsertion, RejectsAMismatchedIndexWidthAndNegatedLowBitsAtArity8) {
  TestSystem cs;
  const AllocatedNum x = AllocatedNum::alloc(cs, Fr::one());
  const std::vector<AllocatedNum> three(3, x);
  const std::vector<AllocatedNum> seven(7, x);
  const auto bits = alloc_index(cs, 1, 3);
  EXPECT_THROW(insert(cs, x, bits, three), std::invalid_argument);
  const std::vector<Boolean> negated{!bits[0], bits[1], bits[2]};
  EXPECT_THROW(insert(cs, x, negated, seven), std::invalid_argument);
  EXPECT_THROW(select(cs, three, std::span(bits).first(2)), std::invalid_argument);
}

std::size_t base_tree_count(const TreeShape& s) { return (s.sub == 0 ? 1 : s.sub) * (s.top == 0 ? 1 : s.top); }

struct PorCase {
  TreeShape shape;
  std::size_t public_root_constraints;
  std::size_t private_root_constraints;  // 0: the reference has no private-root test for it
};

class FilecoinPoseidonPor : public ::testing::TestWithParam<PorCase> {};

// tests/por_circuit.rs: 64·(base trees) leaves; the leaf and root as values (allocated
// by the gadget); 3 inputs with the root public, 2 without.
TEST_P(FilecoinPoseidonPor, CountsInputsAndInclusionAsTheReference) {
  const PorCase& c = GetParam();
  std::mt19937_64 rng(c.shape.base * 100 + c.shape.sub * 10 + c.shape.top);
  const std::size_t leaves = 64 * base_tree_count(c.shape);
  std::vector<Fr> data(leaves);
  for (Fr& x : data) x = Fr::random(rng);
  const PoseidonTree tree(data, c.shape);
  for (std::size_t i = 0; i < leaves; i += 1 + leaves / 9) {
    for (const auto visibility : {RootVisibility::kPublic, RootVisibility::kPrivate}) {
      const bool is_public = visibility == RootVisibility::kPublic;
      if (!is_public && c.private_root_constraints == 0) continue;
      TestSystem cs;
      enforce_inclusion(cs, TreeHash::kPoseidon, c.shape, data[i], tree.path(i), tree.root(), visibility);
      EXPECT_EQ(cs.num_constraints(), is_public ? c.public_root_constraints : c.private_root_constraints);
      ASSERT_EQ(cs.num_inputs(), is_public ? 3u : 2u);
      ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
      const std::vector<Fr> expected =
          inclusion_public_inputs(i, is_public ? std::optional<Fr>(tree.root()) : std::nullopt);
      EXPECT_EQ(std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end()), expected);
    }
  }
}

TEST_P(FilecoinPoseidonPor, RejectsAnotherLeafASiblingOrARoot) {
  const PorCase& c = GetParam();
  std::mt19937_64 rng(7);
  const std::size_t leaves = 64 * base_tree_count(c.shape);
  std::vector<Fr> data(leaves);
  for (Fr& x : data) x = Fr::random(rng);
  const PoseidonTree tree(data, c.shape);
  const std::size_t i = leaves - 3;
  auto satisfied = [&](const Fr& leaf, const PoseidonPath& path, const Fr& root) {
    TestSystem cs;
    enforce_inclusion(cs, TreeHash::kPoseidon, c.shape, leaf, path, root, RootVisibility::kPrivate);
    return cs.is_satisfied();
  };
  ASSERT_TRUE(satisfied(data[i], tree.path(i), tree.root()));
  EXPECT_FALSE(satisfied(data[i - 1], tree.path(i), tree.root()));
  EXPECT_FALSE(satisfied(data[i], tree.path(i), tree.root() + Fr::one()));
  PoseidonPath sibling = tree.path(i);
  sibling.back().hashes.front() += Fr::one();
  EXPECT_FALSE(satisfied(data[i], sibling, tree.root()));
  // The leaf at another position (the index bits are the public input).
  PoseidonPath moved = tree.path(i);
  moved.front().index ^= 1;
  EXPECT_FALSE(satisfied(data[i], moved, tree.root()));
}

INSTANTIATE_TEST_SUITE_P(
    Reference, FilecoinPoseidonPor,
    ::testing::Values(PorCase{{2, 0, 0}, 1'887, 1'886}, PorCase{{4, 0, 0}, 1'164, 1'163},
                      PorCase{{8, 0, 0}, 1'063, 1'062}, PorCase{{8, 2, 0}, 1'377, 0},
                      PorCase{{8, 4, 2}, 1'764, 0}, PorCase{{8, 8, 0}, 1'593, 0}, PorCase{{8, 8, 2}, 1'907, 0},
                      PorCase{{8, 2, 4}, 1'764, 0}),
    [](const auto& info) {
      const TreeShape& s = info.param.shape;
      return "base" + std::to_string(s.base) + "_sub" + std::to_string(s.sub) + "_top" + std::to_string(s.top);
    });

// test_por_circuit_sha256_base_2: a binary SHA-256 tree of 64 leaves, root public:
// 272 295 constraints (6 levels of 45 382: an index bit, two picks, two 256-constraint
// decompositions, a two-block SHA-256 and the digest's packing).
TEST(FilecoinSha256Por, CountsInputsAndInclusionAsTheReference) {
  std::mt19937_64 rng(11);
  std::vector<NodeBytes> leaves(64);
  for (NodeBytes& leaf : leaves) leaf = hashers::fr_to_domain(Fr::random(rng));
  const hash::merkle::Sha256Tree tree(leaves);
  const Fr root = hashers::domain_to_fr(tree.root());
  for (const std::size_t i : {std::size_t{0}, std::size_t{45}}) {
    TestSystem cs;
    enforce_inclusion(cs, TreeHash::kSha256, {2, 0, 0}, hashers::domain_to_fr(leaves[i]),
                      porep::tree_d_path(tree.path(i)), root, RootVisibility::kPublic);
    EXPECT_EQ(cs.num_constraints(), 272'295u);
    ASSERT_EQ(cs.num_inputs(), 3u);
    ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
    EXPECT_EQ(std::vector<Fr>(cs.inputs().begin() + 1, cs.inputs().end()), inclusion_public_inputs(i, root));
  }
  TestSystem cs;
  enforce_inclusion(cs, TreeHash::kSha256, {2, 0, 0}, hashers::domain_to_fr(leaves[3]),
                    porep::tree_d_path(tree.path(2)), root, RootVisibility::kPrivate);
  EXPECT_FALSE(cs.is_satisfied());
}

TEST(FilecoinPor, ValuesOnlySystemComputesTheSameAssignment) {
  std::mt19937_64 rng(12);
  const TreeShape shape{8, 4, 2};
  std::vector<Fr> data(64 * 8);
  for (Fr& x : data) x = Fr::random(rng);
  const PoseidonTree tree(data, shape);
  TestSystem full;
  r1cs::WitnessSystem values_only;
  for (r1cs::ConstraintSystem* cs : {static_cast<r1cs::ConstraintSystem*>(&full),
                                     static_cast<r1cs::ConstraintSystem*>(&values_only)}) {
    enforce_inclusion(*cs, TreeHash::kPoseidon, shape, data[300], tree.path(300), tree.root(),
                      RootVisibility::kPublic);
  }
  EXPECT_EQ(values_only.num_constraints(), full.num_constraints());
  EXPECT_EQ(values_only.inputs(), full.inputs());
  EXPECT_EQ(values_only.aux_values(), full.aux());
}

TEST(FilecoinPor, RejectsPathsThatDoNotFitTheShape) {
  std::mt19937_64 rng(13);
  std::vector<Fr> data(64);
  for (Fr& x : data) x = Fr::random(rng);
  const PoseidonTree tree(data, {8, 0, 0});
  TestSystem cs;
  // An arity-8 path read as a binary one.
  EXPECT_THROW(enforce_inclusion(cs, TreeHash::kPoseidon, {2, 0, 0}, data[5], tree.path(5), tree.root(),
                                 RootVisibility::kPrivate),
               std::invalid_argument);
  PoseidonPath bad_index = tree.path(5);
  bad_index[1].index = 8;
  EXPECT_THROW(enforce_inclusion(cs, TreeHash::kPoseidon, {8, 0, 0}, data[5], bad_index, tree.root(),
                                 RootVisibility::kPrivate),
               std::invalid_argument);
  EXPECT_THROW(enforce_inclusion(cs, TreeHash::kPoseidon, {8, 0, 2}, data[5], tree.path(5), tree.root(),
                                 RootVisibility::kPrivate),
               std::invalid_argument);
  EXPECT_THROW(enforce_inclusion(cs, TreeHash::kPoseidon, {6, 0, 0}, data[5], tree.path(5), tree.root(),
                                 RootVisibility::kPrivate),
               std::invalid_argument);
}

}  // namespace
}  // namespace zkpipe::filecoin::core
