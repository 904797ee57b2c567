// A binary SHA-256 Merkle tree outside the circuit, for witnesses and tests, over
// 32-byte nodes, where a node is SHA-256(left ‖ right) with its two top bits cleared
// (Filecoin's "trimmed" digest: the 32 bytes read as a little-endian integer are then
// below 2^254, so every node is an Fr). Filecoin's Poseidon trees are
// circuits/filecoin/core/tree_poseidon.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "hash/sha256.hpp"

namespace zkpipe::hash::merkle {

using Node = sha256::Digest;

Node sha256_node(const Node& left, const Node& right);

struct Sha256Path {
  std::vector<Node> siblings;  // leaf level first
  std::uint64_t index = 0;     // leaf index; bit i says whether level i's node is a right child
};

class Sha256Tree {
 public:
  // Leaf count must be a power of two (≥ 1).
  explicit Sha256Tree(std::vector<Node> leaves);

  const Node& root() const { return levels_.back()[0]; }
  std::size_t height() const { return levels_.size() - 1; }
  const Node& leaf(std::uint64_t index) const { return levels_[0].at(index); }
  Sha256Path path(std::uint64_t index) const;

 private:
  std::vector<std::vector<Node>> levels_;
};

Node sha256_root_from_path(const Node& leaf, const Sha256Path& path);

}  // namespace zkpipe::hash::merkle
