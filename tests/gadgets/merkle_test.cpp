// The native binary SHA-256 tree (hash/merkle.hpp: Filecoin's tree_d). Its circuit
// side is filecoin::core's PoR gadget (tests/circuits/filecoin_por_gadget_test.cpp).
#include <gtest/gtest.h>

#include <random>

#include "hash/merkle.hpp"

namespace zkpipe::hash::merkle {
namespace {

std::vector<Node> random_nodes(std::size_t n, std::mt19937_64& rng) {
  std::vector<Node> v(n);
  for (Node& node : v) {
    for (auto& b : node) b = static_cast<std::uint8_t>(rng());
    node[31] &= 0x3f;
  }
  return v;
}

TEST(Sha256Tree, PathsRecomputeTheRoot) {
  std::mt19937_64 rng(3);
  const Sha256Tree tree(random_nodes(16, rng));
  EXPECT_EQ(tree.height(), 4u);
  for (std::uint64_t i = 0; i < 16; ++i) EXPECT_EQ(sha256_root_from_path(tree.leaf(i), tree.path(i)), tree.root());
  // The root is a trimmed SHA-256 of its children.
  EXPECT_EQ(tree.root()[31] & 0xc0, 0);
}

TEST(Sha256Tree, WrongLeafSiblingOrIndexMissTheRoot) {
  std::mt19937_64 rng(5);
  const Sha256Tree tree(random_nodes(4, rng));
  const Sha256Path good = tree.path(1);
  EXPECT_NE(sha256_root_from_path(tree.leaf(2), good), tree.root());

  Sha256Path bad_sibling = good;
  bad_sibling.siblings[1][0] ^= 1;
  EXPECT_NE(sha256_root_from_path(tree.leaf(1), bad_sibling), tree.root());

  Sha256Path bad_index = good;
  bad_index.index = 3;
  EXPECT_NE(sha256_root_from_path(tree.leaf(1), bad_index), tree.root());
}

}  // namespace
}  // namespace zkpipe::hash::merkle
