// A Poseidon tree of tree_poseidon.hpp's shape (base trees, sub level, top level) over
// far more leaves than can be held, of which only a few are non-zero: the tree a
// synthetic C1 output (synthetic_c1.hpp) commits to. Every absent leaf is zero, so a
// node whose subtree holds no given leaf is the filler of its level — filler(0) = 0,
// filler(k + 1) = the hash of arity filler(k)s — and only the nodes above given leaves
// are hashed. The root and paths are those of a PoseidonTree over the same leaves
// with zeros everywhere else.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "circuits/filecoin/core/tree_poseidon.hpp"

namespace zkpipe::filecoin::core {

class SparsePoseidonTree {
 public:
  // `leaves` maps leaf indexes to their values. Throws std::invalid_argument, as
  // PoseidonTree does, for a shape that is not supported or a leaf count that does not
  // split into sub·top base trees of base^k leaves (k ≥ 1), and for a leaf index at or
  // past leaf_count.
  SparsePoseidonTree(std::uint64_t leaf_count, TreeShape shape, const std::map<std::uint64_t, Fr>& leaves);

  const Fr& root() const { return root_; }
  const TreeShape& shape() const { return shape_; }
  std::uint64_t leaf_count() const { return leaf_count_; }
  // Zero for a leaf that was not given. Both throw std::out_of_range for an index at
  // or past leaf_count.
  Fr leaf(std::uint64_t index) const;
  // Base levels from the leaf up, then the sub level, then the top level, as
  // PoseidonTree::path gives them.
  PoseidonPath path(std::uint64_t leaf) const;

 private:
  // The level's node at `index`: its hash when a given leaf lies below, else the filler.
  const Fr& node(std::size_t level, std::uint64_t index) const;
  void check_leaf(std::uint64_t index, const char* what) const;

  TreeShape shape_;
  std::uint64_t leaf_count_;
  std::vector<std::size_t> arities_;  // per level, leaves first: how many of its nodes one parent hashes
  std::vector<Fr> fillers_;           // per level, leaves first, up to the root
  // Per level, leaves first: the nodes with a given leaf below, sorted by index.
  std::vector<std::vector<std::pair<std::uint64_t, Fr>>> levels_;
  Fr root_;
};

}  // namespace zkpipe::filecoin::core
