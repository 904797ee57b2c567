// Merkle trees outside the circuit, for witnesses and tests:
//  - a binary SHA-256 tree over 32-byte nodes, where a node is SHA-256(left ‖ right)
//    with its two top bits cleared (Filecoin's "trimmed" digest: the 32 bytes read
//    as a little-endian integer are then below 2^254, so every node is an Fr);
//  - an arity-8 Poseidon tree over Fr (Poseidon t = 9 with the Merkle domain tag).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hash/poseidon_params.hpp"
#include "hash/sha256.hpp"

namespace zkpipe::hash::merkle {

using ff::Fr;
using Node = sha256::Digest;

Node sha256_node(const Node& left, const Node& right);

// A node's 32 bytes as a little-endian integer; requires the top two bits clear.
Fr node_to_fr(const Node& node);

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

inline constexpr std::size_t kPoseidonArity = 8;

struct PoseidonPath {
  std::vector<std::array<Fr, kPoseidonArity - 1>> siblings;  // leaf level first, in order
  std::uint64_t index = 0;                                   // base-8 digit i: position at level i
};

class PoseidonTree {
 public:
  // Leaf count must be a power of 8 (≥ 1).
  explicit PoseidonTree(std::vector<Fr> leaves);

  const Fr& root() const { return levels_.back()[0]; }
  std::size_t height() const { return levels_.size() - 1; }
  const Fr& leaf(std::uint64_t index) const { return levels_[0].at(index); }
  PoseidonPath path(std::uint64_t index) const;

 private:
  std::vector<std::vector<Fr>> levels_;
};

// The eight children of a level: the siblings with `node` inserted at `position`.
std::array<Fr, kPoseidonArity> insert_child(const std::array<Fr, kPoseidonArity - 1>& siblings, const Fr& node,
                                            std::size_t position);

Fr poseidon_root_from_path(const Fr& leaf, const PoseidonPath& path);

}  // namespace zkpipe::hash::merkle
