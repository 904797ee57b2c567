// Filecoin's Poseidon Merkle trees (tree_c, tree_r_last): storage-proofs-core's
// MerkleTreeWrapper over the merkletree crate with a base arity and optional sub-
// and top-tree arities ("8-8-2"). The leaves are split, in order, into
// sub·top base trees of the base arity; each group of `sub` consecutive base roots
// is hashed into a sub-tree root, and the `top` sub-tree roots into the root. Every
// node is the Merkle-tagged Poseidon hash of its children.
#pragma once

#include <cstdint>
#include <vector>

#include "ff/fr.hpp"

namespace zkpipe::filecoin::core {

using ff::Fr;

// Arities; 0 = no such layer (as typenum U0).
struct TreeShape {
  std::size_t base = 8;
  std::size_t sub = 0;
  std::size_t top = 0;

  bool operator==(const TreeShape&) const = default;
};

// Whether the arities are ones the trees support: base 2, 4 or 8; sub and top 0, 2,
// 4 or 8; no top without a sub.
bool is_supported_shape(const TreeShape& shape);

// The levels above `leaves` leaves in a tree of one arity: ⌊log_arity(leaves)⌋.
std::size_t tree_levels(std::uint64_t leaves, std::size_t arity);

// filecoin-proofs constants.rs: 2 KiB, 8 MiB, 512 MiB are 8-0-0; 4 KiB, 16 MiB,
// 1 GiB 8-2-0; 16 KiB, 32 GiB 8-8-0; 32 KiB, 64 GiB 8-8-2. Throws
// std::invalid_argument for any other size.
TreeShape sector_tree_shape(std::uint64_t sector_size);

// One level of an inclusion path: the other children of the node, in order, and
// where the proven child sits among them (storage-proofs-core's PathElement).
struct PathElement {
  std::vector<Fr> hashes;
  std::size_t index = 0;
};

// Base-tree levels from the leaf up, then the sub-tree level, then the top level
// (storage-proofs-core's MerkleProof path()).
using PoseidonPath = std::vector<PathElement>;

// The arity of each level of an inclusion path in a tree of `leaves` leaves of this
// shape, in that order (a binary tree is the shape 2-0-0).
std::vector<std::size_t> path_arities(std::uint64_t leaves, const TreeShape& shape);
// A path of those levels whose siblings are zero and indexes 0: what a circuit
// synthesized for its shape alone (every value zero) takes.
std::vector<PathElement> zero_path(std::uint64_t leaves, const TreeShape& shape);

class PoseidonTree {
 public:
  // Throws std::invalid_argument unless the leaves split into sub·top base trees of
  // base^k leaves (k ≥ 1) and the arities are supported (base 2, 4 or 8; sub and
  // top 0, 2, 4 or 8; no top without sub).
  PoseidonTree(std::vector<Fr> leaves, TreeShape shape);

  const Fr& root() const { return root_; }
  const TreeShape& shape() const { return shape_; }
  std::uint64_t leaf_count() const { return leaf_count_; }
  const Fr& leaf(std::uint64_t index) const;
  PoseidonPath path(std::uint64_t leaf) const;

 private:
  std::size_t sub_trees() const { return shape_.sub == 0 ? 1 : shape_.sub; }

  TreeShape shape_;
  std::uint64_t leaf_count_ = 0;
  std::vector<std::vector<std::vector<Fr>>> base_levels_;  // per base tree: its levels, leaves first
  std::vector<Fr> base_roots_;
  std::vector<Fr> sub_roots_;  // one per top-level group, when there is a sub layer
  Fr root_;
};

// Folds a leaf up its path: at each level the current node is inserted at `index`
// among `hashes` and the children are hashed (arity hashes.size() + 1).
Fr root_from_path(const Fr& leaf, const PoseidonPath& path);

// The leaf index a path proves, given the tree's shape (storage-proofs' path_index).
std::uint64_t path_leaf_index(const PoseidonPath& path, const TreeShape& shape);

}  // namespace zkpipe::filecoin::core
