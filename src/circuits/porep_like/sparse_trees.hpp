// Merkle trees over sectors far too large to materialize (a 32 GiB sector has 2^30
// nodes): only the paths to challenged leaves are computed; every subtree that no
// path enters is stood in for by a pseudo-random node. All openings then share one
// root, exactly as openings of a full tree do, at O(challenges · depth) cost.
// The nodes are Filecoin's: the data tree's are trimmed SHA-256 digests
// (hashers::sha256_hash2, as tree_d), the replica tree's arity-8 Merkle-tagged
// Poseidon hashes (as tree_r_last's base trees). Unlike filecoin::core's
// SparsePoseidonTree, whose absent leaves are zero, the fillers here are chosen by
// the caller, so that no two unopened subtrees are alike.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "circuits/filecoin/core/tree_poseidon.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"
#include "hash/merkle.hpp"

namespace zkpipe::porep_like {

using ff::Fr;
using Node = filecoin::hashers::Sha256Domain;

class SparseSha256Tree {
 public:
  // filler(level, index) gives the node of an unopened subtree.
  SparseSha256Tree(std::size_t depth, const std::map<std::uint64_t, Node>& leaves,
                   const std::function<Node(std::size_t, std::uint64_t)>& filler);

  const Node& root() const { return levels_.back().begin()->second; }
  hash::merkle::Sha256Path path(std::uint64_t leaf) const;

 private:
  std::vector<std::map<std::uint64_t, Node>> levels_;
};

class SparsePoseidonTree {
 public:
  static constexpr std::uint64_t kArity = 8;

  SparsePoseidonTree(std::size_t depth, const std::map<std::uint64_t, Fr>& leaves,
                     const std::function<Fr(std::size_t, std::uint64_t)>& filler);

  const Fr& root() const { return levels_.back().begin()->second; }
  // Leaf level first, as filecoin::core::PoseidonTree gives a base tree's path.
  filecoin::core::PoseidonPath path(std::uint64_t leaf) const;

 private:
  std::vector<std::map<std::uint64_t, Fr>> levels_;
};

}  // namespace zkpipe::porep_like
