#include <gtest/gtest.h>

#include <random>

#include "gadgets/merkle.hpp"
#include "hash/merkle.hpp"
#include "r1cs/test_system.hpp"

namespace zkpipe::gadgets::merkle {
namespace {

using hash::merkle::insert_child;
using hash::merkle::kPoseidonArity;
using hash::merkle::Node;
using hash::merkle::node_to_fr;
using hash::merkle::PoseidonPath;
using hash::merkle::PoseidonTree;
using hash::merkle::poseidon_root_from_path;
using hash::merkle::Sha256Path;
using hash::merkle::Sha256Tree;
using hash::merkle::sha256_root_from_path;

std::vector<Node> random_nodes(std::size_t n, std::mt19937_64& rng) {
  std::vector<Node> v(n);
  for (Node& node : v) {
    for (auto& b : node) b = static_cast<std::uint8_t>(rng());
    node[31] &= 0x3f;
  }
  return v;
}

// Synthesizes "leaf is at path.index under root", root a public input, and reports
// whether the witness satisfies the circuit.
bool sha256_inclusion_holds(const Node& leaf, const Sha256Path& path, const Node& root,
                            IndexVisibility visibility) {
  r1cs::TestSystem cs;
  const AllocatedNum root_input = AllocatedNum::alloc_input(cs, node_to_fr(root));
  const std::vector<Boolean> leaf_bits = alloc_bits(cs, bytes_to_bits_be(leaf));
  const std::vector<Boolean> index = alloc_index_bits(cs, path.index, path.siblings.size(), visibility);
  const Num computed = sha256_root(cs, leaf_bits, path.siblings, index);
  enforce_equal(cs, computed, Num::of(root_input));
  return cs.is_satisfied();
}

TEST(Sha256Tree, PathsRecomputeTheRoot) {
  std::mt19937_64 rng(3);
  const Sha256Tree tree(random_nodes(16, rng));
  EXPECT_EQ(tree.height(), 4u);
  for (std::uint64_t i = 0; i < 16; ++i) EXPECT_EQ(sha256_root_from_path(tree.leaf(i), tree.path(i)), tree.root());
  // The root is a trimmed SHA-256 of its children.
  EXPECT_EQ(tree.root()[31] & 0xc0, 0);
}

TEST(Sha256MerkleGadget, AcceptsValidPathsPrivateAndPublicIndex) {
  std::mt19937_64 rng(4);
  const Sha256Tree tree(random_nodes(4, rng));
  for (std::uint64_t i : {0u, 3u}) {
    EXPECT_TRUE(sha256_inclusion_holds(tree.leaf(i), tree.path(i), tree.root(), IndexVisibility::kPrivate));
  }
  EXPECT_TRUE(sha256_inclusion_holds(tree.leaf(2), tree.path(2), tree.root(), IndexVisibility::kPublic));
}

TEST(Sha256MerkleGadget, RejectsWrongLeafSiblingOrIndex) {
  std::mt19937_64 rng(5);
  const Sha256Tree tree(random_nodes(4, rng));
  const Sha256Path good = tree.path(1);

  EXPECT_FALSE(sha256_inclusion_holds(tree.leaf(2), good, tree.root(), IndexVisibility::kPrivate));

  Sha256Path bad_sibling = good;
  bad_sibling.siblings[1][0] ^= 1;
  EXPECT_FALSE(sha256_inclusion_holds(tree.leaf(1), bad_sibling, tree.root(), IndexVisibility::kPrivate));

  Sha256Path bad_index = good;
  bad_index.index = 3;
  EXPECT_FALSE(sha256_inclusion_holds(tree.leaf(1), bad_index, tree.root(), IndexVisibility::kPrivate));
}

TEST(Sha256MerkleGadget, PublicIndexInputIsBoundToThePath) {
  std::mt19937_64 rng(6);
  const Sha256Tree tree(random_nodes(2, rng));
  r1cs::TestSystem cs;
  const AllocatedNum root_input = AllocatedNum::alloc_input(cs, node_to_fr(tree.root()));
  const Sha256Path path = tree.path(1);
  const std::vector<Boolean> leaf_bits = alloc_bits(cs, bytes_to_bits_be(tree.leaf(1)));
  const std::vector<Boolean> index = alloc_index_bits(cs, path.index, 1, IndexVisibility::kPublic);
  enforce_equal(cs, sha256_root(cs, leaf_bits, path.siblings, index), Num::of(root_input));
  ASSERT_TRUE(cs.is_satisfied()) << *cs.which_is_unsatisfied();
  ASSERT_EQ(cs.num_inputs(), 3u);
  EXPECT_EQ(cs.inputs()[2], ff::Fr::one());
  cs.set_input(r1cs::Variable::input(2), ff::Fr::zero());
  const auto failure = cs.which_is_unsatisfied();
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->rfind("index: constraint", 0), 0u) << *failure;
}

std::vector<ff::Fr> random_frs(std::size_t n, std::mt19937_64& rng) {
  std::vector<ff::Fr> v(n);
  for (ff::Fr& x : v) x = ff::Fr::random(rng);
  return v;
}

bool poseidon_inclusion_holds(const ff::Fr& leaf, const PoseidonPath& path, const ff::Fr& root, IndexVisibility visibility) {
  r1cs::TestSystem cs;
  const AllocatedNum root_input = AllocatedNum::alloc_input(cs, root);
  const AllocatedNum leaf_var = AllocatedNum::alloc(cs, leaf);
  const std::vector<Boolean> index = alloc_index_bits(cs, path.index, 3 * path.siblings.size(), visibility);
  enforce_equal(cs, poseidon_root(cs, Num::of(leaf_var), path.siblings, index), Num::of(root_input));
  return cs.is_satisfied();
}

TEST(PoseidonTree, PathsRecomputeTheRoot) {
  std::mt19937_64 rng(7);
  const PoseidonTree tree(random_frs(64, rng));
  EXPECT_EQ(tree.height(), 2u);
  for (std::uint64_t i = 0; i < 64; i += 7) EXPECT_EQ(poseidon_root_from_path(tree.leaf(i), tree.path(i)), tree.root());
}

TEST(PoseidonMerkleGadget, AcceptsValidPathsAtEveryPosition) {
  std::mt19937_64 rng(8);
  const PoseidonTree tree(random_frs(64, rng));
  // Every digit value 0..7 at both levels.
  for (std::uint64_t i : {0u, 9u, 18u, 27u, 36u, 45u, 54u, 63u}) {
    EXPECT_TRUE(poseidon_inclusion_holds(tree.leaf(i), tree.path(i), tree.root(), IndexVisibility::kPrivate)) << i;
  }
  EXPECT_TRUE(poseidon_inclusion_holds(tree.leaf(42), tree.path(42), tree.root(), IndexVisibility::kPublic));
}

TEST(PoseidonMerkleGadget, RejectsWrongLeafSiblingOrIndex) {
  std::mt19937_64 rng(9);
  const PoseidonTree tree(random_frs(64, rng));
  const PoseidonPath good = tree.path(21);
  EXPECT_FALSE(poseidon_inclusion_holds(tree.leaf(22), good, tree.root(), IndexVisibility::kPrivate));

  PoseidonPath bad_sibling = good;
  bad_sibling.siblings[1][3] += ff::Fr::one();
  EXPECT_FALSE(poseidon_inclusion_holds(tree.leaf(21), bad_sibling, tree.root(), IndexVisibility::kPrivate));

  PoseidonPath bad_index = good;
  bad_index.index = 22;
  EXPECT_FALSE(poseidon_inclusion_holds(tree.leaf(21), bad_index, tree.root(), IndexVisibility::kPublic));
}

TEST(PoseidonMerkleGadget, ChildAtTheIndexMustBeTheCurrentNode) {
  std::mt19937_64 rng(10);
  const PoseidonTree tree(random_frs(8, rng));
  r1cs::TestSystem cs;
  const AllocatedNum leaf = AllocatedNum::alloc(cs, tree.leaf(5));
  const std::vector<Boolean> index = alloc_index_bits(cs, 5, 3, IndexVisibility::kPrivate);
  const std::size_t before = cs.num_aux();
  poseidon_root(cs, Num::of(leaf), tree.path(5).siblings, index);
  ASSERT_TRUE(cs.is_satisfied());
  // Aux layout per level: b0·b1, four selector products, then the eight children.
  const auto child5 = r1cs::Variable::aux(static_cast<std::uint32_t>(before + 5 + 5));
  cs.set_aux(child5, cs.aux()[child5.index()] + ff::Fr::one());
  const auto failure = cs.which_is_unsatisfied();
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->rfind("poseidon merkle path/level 0: constraint", 0), 0u) << *failure;
}

}  // namespace
}  // namespace zkpipe::gadgets::merkle
