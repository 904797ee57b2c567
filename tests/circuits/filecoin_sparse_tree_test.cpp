// The sparse Poseidon tree against PoseidonTree over the same leaves with zeros
// everywhere else, for every kind of shape (single, sub, top).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

#include "circuits/filecoin/core/sparse_poseidon_tree.hpp"

namespace zkpipe::filecoin::core {
namespace {

struct SparseCase {
  TreeShape shape;
  std::uint64_t leaves;
};

class FilecoinSparsePoseidonTree : public ::testing::TestWithParam<SparseCase> {};

void expect_same_path(const PoseidonPath& sparse, const PoseidonPath& full, std::uint64_t leaf) {
  ASSERT_EQ(sparse.size(), full.size()) << "leaf " << leaf;
  for (std::size_t level = 0; level < full.size(); ++level) {
    EXPECT_EQ(sparse[level].index, full[level].index) << "leaf " << leaf << " level " << level;
    EXPECT_EQ(sparse[level].hashes, full[level].hashes) << "leaf " << leaf << " level " << level;
  }
}

TEST_P(FilecoinSparsePoseidonTree, EqualsTheFullTreeWithZeroLeaves) {
  const SparseCase& c = GetParam();
  std::mt19937_64 rng(c.leaves + c.shape.base);
  std::map<std::uint64_t, Fr> given;
  // A few leaves, two of them siblings, the first and the last among them.
  for (const std::uint64_t index : {std::uint64_t{0}, std::uint64_t{1}, c.leaves / 3, c.leaves - 1}) {
    given.emplace(index, Fr::random(rng));
  }
  std::vector<Fr> all(c.leaves, Fr::zero());
  for (const auto& [index, value] : given) all[index] = value;

  const SparsePoseidonTree sparse(c.leaves, c.shape, given);
  const PoseidonTree full(all, c.shape);
  EXPECT_EQ(sparse.root(), full.root());
  EXPECT_EQ(sparse.leaf_count(), c.leaves);
  for (const std::uint64_t leaf : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, c.leaves / 3,
                                   c.leaves / 2 + 1, c.leaves - 1}) {
    EXPECT_EQ(sparse.leaf(leaf), full.leaf(leaf)) << "leaf " << leaf;
    const PoseidonPath path = sparse.path(leaf);
    expect_same_path(path, full.path(leaf), leaf);
    EXPECT_EQ(root_from_path(sparse.leaf(leaf), path), sparse.root()) << "leaf " << leaf;
    EXPECT_EQ(path_leaf_index(path, c.shape), leaf);
  }
}

TEST_P(FilecoinSparsePoseidonTree, WithoutLeavesIsTheAllZeroTree) {
  const SparseCase& c = GetParam();
  const SparsePoseidonTree sparse(c.leaves, c.shape, {});
  const PoseidonTree full(std::vector<Fr>(c.leaves, Fr::zero()), c.shape);
  EXPECT_EQ(sparse.root(), full.root());
  expect_same_path(sparse.path(c.leaves / 2), full.path(c.leaves / 2), c.leaves / 2);
}

INSTANTIATE_TEST_SUITE_P(Shapes, FilecoinSparsePoseidonTree,
                         ::testing::Values(SparseCase{{8, 0, 0}, 64}, SparseCase{{2, 0, 0}, 16},
                                           SparseCase{{8, 2, 0}, 128}, SparseCase{{8, 8, 0}, 512},
                                           SparseCase{{8, 8, 2}, 1024}, SparseCase{{4, 4, 2}, 128}),
                         [](const auto& info) {
                           const TreeShape& s = info.param.shape;
                           return "base" + std::to_string(s.base) + "_sub" + std::to_string(s.sub) + "_top" +
                                  std::to_string(s.top);
                         });

TEST(FilecoinSparsePoseidonTreeErrors, RejectsWhatPoseidonTreeRejects) {
  const std::map<std::uint64_t, Fr> none;
  EXPECT_THROW(SparsePoseidonTree(64, {3, 0, 0}, none), std::invalid_argument);
  EXPECT_THROW(SparsePoseidonTree(128, {8, 0, 2}, none), std::invalid_argument);
  EXPECT_THROW(SparsePoseidonTree(63, {8, 0, 0}, none), std::invalid_argument);
  EXPECT_THROW(SparsePoseidonTree(8, {8, 2, 0}, none), std::invalid_argument);
  EXPECT_THROW(SparsePoseidonTree(1, {8, 0, 0}, none), std::invalid_argument);
  EXPECT_THROW(SparsePoseidonTree(64, {8, 0, 0}, {{64, Fr::one()}}), std::invalid_argument);

  const SparsePoseidonTree tree(64, {8, 0, 0}, {{3, Fr::one()}});
  EXPECT_THROW(tree.leaf(64), std::out_of_range);
  EXPECT_THROW(tree.path(64), std::out_of_range);
}

// The sizes a sector needs are cheap: only the given leaves' ancestors are hashed.
TEST(FilecoinSparsePoseidonTreeSize, HoldsA64GiBShape) {
  const std::uint64_t leaves = std::uint64_t{1} << 31;
  const SparsePoseidonTree tree(leaves, {8, 8, 2}, {{leaves - 5, Fr::one()}});
  const PoseidonPath path = tree.path(leaves - 5);
  EXPECT_EQ(path.size(), 9u + 2u);
  EXPECT_EQ(root_from_path(Fr::one(), path), tree.root());
  EXPECT_EQ(path_leaf_index(path, tree.shape()), leaves - 5);
}

}  // namespace
}  // namespace zkpipe::filecoin::core
