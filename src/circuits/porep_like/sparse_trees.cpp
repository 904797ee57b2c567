#include "circuits/porep_like/sparse_trees.hpp"

#include <stdexcept>

#include "circuits/filecoin/hashers/poseidon_hash.hpp"

namespace zkpipe::porep_like {

SparseSha256Tree::SparseSha256Tree(std::size_t depth, const std::map<std::uint64_t, Node>& leaves,
                                   const std::function<Node(std::size_t, std::uint64_t)>& filler) {
  if (leaves.empty()) throw std::invalid_argument("sparse tree: no leaves");
  levels_.push_back(leaves);
  for (std::size_t level = 0; level < depth; ++level) {
    auto& below = levels_.back();
    for (const auto& [index, node] : std::map(below)) {
      if (!below.contains(index ^ 1)) below.emplace(index ^ 1, filler(level, index ^ 1));
    }
    std::map<std::uint64_t, Node> above;
    for (const auto& [index, node] : below) {
      if (index % 2 == 0) above[index / 2] = filecoin::hashers::sha256_hash2(node, below.at(index + 1));
    }
    levels_.push_back(std::move(above));
  }
}

hash::merkle::Sha256Path SparseSha256Tree::path(std::uint64_t leaf) const {
  hash::merkle::Sha256Path p;
  p.index = leaf;
  for (std::size_t level = 0; level + 1 < levels_.size(); ++level) {
    p.siblings.push_back(levels_[level].at((leaf >> level) ^ 1));
  }
  return p;
}

SparsePoseidonTree::SparsePoseidonTree(std::size_t depth, const std::map<std::uint64_t, Fr>& leaves,
                                       const std::function<Fr(std::size_t, std::uint64_t)>& filler) {
  if (leaves.empty()) throw std::invalid_argument("sparse tree: no leaves");
  levels_.push_back(leaves);
  std::vector<Fr> children;
  for (std::size_t level = 0; level < depth; ++level) {
    auto& below = levels_.back();
    for (const auto& [index, node] : std::map(below)) {
      const std::uint64_t first = index - index % kArity;
      for (std::uint64_t k = first; k < first + kArity; ++k) {
        if (!below.contains(k)) below.emplace(k, filler(level, k));
      }
    }
    std::map<std::uint64_t, Fr> above;
    for (auto it = below.begin(); it != below.end();) {
      const std::uint64_t parent = it->first / kArity;
      children.clear();
      for (std::uint64_t k = 0; k < kArity; ++k, ++it) children.push_back(it->second);
      above[parent] = filecoin::hashers::poseidon::hash(children);
    }
    levels_.push_back(std::move(above));
  }
}

filecoin::core::PoseidonPath SparsePoseidonTree::path(std::uint64_t leaf) const {
  filecoin::core::PoseidonPath p;
  std::uint64_t index = leaf;
  for (std::size_t level = 0; level + 1 < levels_.size(); ++level) {
    const std::uint64_t first = index - index % kArity;
    filecoin::core::PathElement element{{}, static_cast<std::size_t>(index % kArity)};
    element.hashes.reserve(kArity - 1);
    for (std::uint64_t k = first; k < first + kArity; ++k) {
      if (k != index) element.hashes.push_back(levels_[level].at(k));
    }
    p.push_back(std::move(element));
    index /= kArity;
  }
  return p;
}

}  // namespace zkpipe::porep_like
