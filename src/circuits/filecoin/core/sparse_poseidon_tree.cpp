#include "circuits/filecoin/core/sparse_poseidon_tree.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "circuits/filecoin/hashers/poseidon_hash.hpp"

namespace zkpipe::filecoin::core {
namespace {

std::string shape_name(const TreeShape& s) {
  return std::to_string(s.base) + "-" + std::to_string(s.sub) + "-" + std::to_string(s.top);
}

// The arity of each level's parents, leaves first: the base levels of one base tree,
// then the sub level and the top level where the shape has them.
std::vector<std::size_t> level_arities(std::uint64_t leaf_count, const TreeShape& shape) {
  if (!is_supported_shape(shape)) {
    throw std::invalid_argument("SparsePoseidonTree: shape " + shape_name(shape) + " is not supported");
  }
  const std::uint64_t trees = std::uint64_t{shape.sub == 0 ? 1 : shape.sub} * (shape.top == 0 ? 1 : shape.top);
  std::vector<std::size_t> arities;
  std::uint64_t per_tree = leaf_count % trees == 0 ? leaf_count / trees : 0;
  while (per_tree > 1 && per_tree % shape.base == 0) {
    arities.push_back(shape.base);
    per_tree /= shape.base;
  }
  if (per_tree != 1 || arities.empty()) {
    throw std::invalid_argument("SparsePoseidonTree: " + std::to_string(leaf_count) + " leaves do not split into " +
                                std::to_string(trees) + " trees of " + std::to_string(shape.base) + "^k leaves");
  }
  if (shape.sub != 0) arities.push_back(shape.sub);
  if (shape.top != 0) arities.push_back(shape.top);
  return arities;
}

}  // namespace

SparsePoseidonTree::SparsePoseidonTree(std::uint64_t leaf_count, TreeShape shape,
                                       const std::map<std::uint64_t, Fr>& leaves)
    : shape_(shape), leaf_count_(leaf_count), arities_(level_arities(leaf_count, shape)) {
  if (!leaves.empty() && leaves.rbegin()->first >= leaf_count) {
    throw std::invalid_argument("SparsePoseidonTree: leaf " + std::to_string(leaves.rbegin()->first) + " of " +
                                std::to_string(leaf_count));
  }
  fillers_.push_back(Fr::zero());
  for (const std::size_t arity : arities_) {
    const std::vector<Fr> children(arity, fillers_.back());
    fillers_.push_back(hashers::poseidon::hash(children));
  }

  levels_.emplace_back(leaves.begin(), leaves.end());
  std::vector<Fr> children;
  for (const std::size_t arity : arities_) {
    const auto& below = levels_.back();
    const Fr& filler = fillers_[levels_.size() - 1];
    std::vector<std::pair<std::uint64_t, Fr>> above;
    // `below` is sorted, so the children of one parent are consecutive.
    for (std::size_t i = 0; i < below.size();) {
      const std::uint64_t parent = below[i].first / arity;
      children.assign(arity, filler);
      for (; i < below.size() && below[i].first / arity == parent; ++i) {
        children[below[i].first % arity] = below[i].second;
      }
      above.emplace_back(parent, hashers::poseidon::hash(children));
    }
    levels_.push_back(std::move(above));
  }
  root_ = levels_.back().empty() ? fillers_.back() : levels_.back().front().second;
}

void SparsePoseidonTree::check_leaf(std::uint64_t index, const char* what) const {
  if (index >= leaf_count_) {
    throw std::out_of_range(std::string("SparsePoseidonTree::") + what + ": leaf " + std::to_string(index) + " of " +
                            std::to_string(leaf_count_));
  }
}

const Fr& SparsePoseidonTree::node(std::size_t level, std::uint64_t index) const {
  const auto& nodes = levels_[level];
  const auto it = std::lower_bound(nodes.begin(), nodes.end(), index,
                                   [](const auto& node, std::uint64_t i) { return node.first < i; });
  return it != nodes.end() && it->first == index ? it->second : fillers_[level];
}

Fr SparsePoseidonTree::leaf(std::uint64_t index) const {
  check_leaf(index, "leaf");
  return node(0, index);
}

PoseidonPath SparsePoseidonTree::path(std::uint64_t leaf) const {
  check_leaf(leaf, "path");
  PoseidonPath path;
  path.reserve(arities_.size());
  std::uint64_t index = leaf;
  for (std::size_t level = 0; level < arities_.size(); ++level) {
    const std::size_t arity = arities_[level];
    const std::size_t position = static_cast<std::size_t>(index % arity);
    PathElement element{{}, position};
    element.hashes.reserve(arity - 1);
    for (std::size_t child = 0; child < arity; ++child) {
      if (child != position) element.hashes.push_back(node(level, index - position + child));
    }
    path.push_back(std::move(element));
    index /= arity;
  }
  return path;
}

}  // namespace zkpipe::filecoin::core
