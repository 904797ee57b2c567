// Merkle trees over sectors far too large to materialize (a 32 GiB sector has 2^30
// nodes): only the paths to challenged leaves are computed; every subtree that no
// path enters is stood in for by a pseudo-random node. All openings then share one
// root, exactly as openings of a full tree do, at O(challenges · depth) cost.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <vector>

#include "hash/merkle.hpp"

namespace zkpipe::porep_like {

using ff::Fr;
using hash::merkle::Node;

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
  SparsePoseidonTree(std::size_t depth, const std::map<std::uint64_t, ff::Fr>& leaves,
                     const std::function<ff::Fr(std::size_t, std::uint64_t)>& filler);

  const ff::Fr& root() const { return levels_.back().begin()->second; }
  hash::merkle::PoseidonPath path(std::uint64_t leaf) const;

 private:
  std::vector<std::map<std::uint64_t, ff::Fr>> levels_;
};

}  // namespace zkpipe::porep_like
