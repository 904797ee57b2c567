#include "circuits/filecoin/core/tree_poseidon.hpp"

#include <span>
#include <stdexcept>
#include <string>

#include "circuits/filecoin/hashers/poseidon_hash.hpp"

namespace zkpipe::filecoin::core {

namespace {

std::vector<Fr> others(std::span<const Fr> nodes, std::size_t skip) {
  std::vector<Fr> out;
  out.reserve(nodes.size() - 1);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (i != skip) out.push_back(nodes[i]);
  }
  return out;
}

}  // namespace

std::vector<std::size_t> path_arities(std::uint64_t leaves, const TreeShape& shape) {
  const std::uint64_t base_trees = (shape.sub == 0 ? 1 : shape.sub) * (shape.top == 0 ? 1 : shape.top);
  std::vector<std::size_t> arities;
  for (std::uint64_t n = leaves / base_trees; n > 1; n /= shape.base) arities.push_back(shape.base);
  if (shape.sub != 0) arities.push_back(shape.sub);
  if (shape.top != 0) arities.push_back(shape.top);
  return arities;
}

std::vector<PathElement> zero_path(std::uint64_t leaves, const TreeShape& shape) {
  std::vector<PathElement> path;
  for (const std::size_t arity : path_arities(leaves, shape)) path.push_back(PathElement{std::vector<Fr>(arity - 1), 0});
  return path;
}

TreeShape sector_tree_shape(std::uint64_t sector_size) {
  constexpr std::uint64_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;
  switch (sector_size) {
    case 2 * KiB:
    case 8 * MiB:
    case 512 * MiB: return TreeShape{8, 0, 0};
    case 4 * KiB:
    case 16 * MiB:
    case 1 * GiB: return TreeShape{8, 2, 0};
    case 16 * KiB:
    case 32 * GiB: return TreeShape{8, 8, 0};
    case 32 * KiB:
    case 64 * GiB: return TreeShape{8, 8, 2};
    default: throw std::invalid_argument("sector_tree_shape: " + std::to_string(sector_size) + " is not a sector size");
  }
}

bool is_supported_shape(const TreeShape& shape) {
  auto layer = [](std::size_t a) { return a == 2 || a == 4 || a == 8; };
  return layer(shape.base) && (shape.sub == 0 || layer(shape.sub)) && (shape.top == 0 || layer(shape.top)) &&
         (shape.top == 0 || shape.sub != 0);
}

std::size_t tree_levels(std::uint64_t leaves, std::size_t arity) {
  std::size_t k = 0;
  for (; leaves > 1; leaves /= arity) ++k;
  return k;
}

PoseidonTree::PoseidonTree(std::vector<Fr> leaves, TreeShape shape) : shape_(shape), leaf_count_(leaves.size()) {
  if (!is_supported_shape(shape)) {
    throw std::invalid_argument("PoseidonTree: shape " + std::to_string(shape.base) + "-" + std::to_string(shape.sub) +
                                "-" + std::to_string(shape.top) + " is not supported");
  }
  const std::size_t trees = sub_trees() * (shape.top == 0 ? 1 : shape.top);
  const std::size_t per_tree = leaves.size() / trees;
  std::size_t n = per_tree;
  while (n > 1 && n % shape.base == 0) n /= shape.base;
  if (leaves.empty() || leaves.size() % trees != 0 || per_tree < shape.base || n != 1) {
    throw std::invalid_argument("PoseidonTree: " + std::to_string(leaves.size()) + " leaves do not split into " +
                                std::to_string(trees) + " trees of " + std::to_string(shape.base) + "^k leaves");
  }

  base_levels_.resize(trees);
  for (std::size_t t = 0; t < trees; ++t) {
    auto& levels = base_levels_[t];
    levels.emplace_back(leaves.begin() + static_cast<std::ptrdiff_t>(t * per_tree),
                        leaves.begin() + static_cast<std::ptrdiff_t>((t + 1) * per_tree));
    while (levels.back().size() > 1) {
      const std::vector<Fr>& below = levels.back();
      std::vector<Fr> above(below.size() / shape.base);
      for (std::size_t i = 0; i < above.size(); ++i) {
        above[i] = hashers::poseidon::hash(std::span<const Fr>(below).subspan(i * shape.base, shape.base));
      }
      levels.push_back(std::move(above));
    }
    base_roots_.push_back(levels.back()[0]);
  }

  if (shape.sub == 0) {
    root_ = base_roots_[0];
    return;
  }
  for (std::size_t g = 0; g < trees / shape.sub; ++g) {
    sub_roots_.push_back(hashers::poseidon::hash(std::span<const Fr>(base_roots_).subspan(g * shape.sub, shape.sub)));
  }
  root_ = shape.top == 0 ? sub_roots_[0] : hashers::poseidon::hash(sub_roots_);
}

const Fr& PoseidonTree::leaf(std::uint64_t index) const {
  if (index >= leaf_count_) throw std::out_of_range("PoseidonTree::leaf: index");
  const std::uint64_t per_tree = leaf_count_ / base_levels_.size();
  return base_levels_[index / per_tree][0][index % per_tree];
}

PoseidonPath PoseidonTree::path(std::uint64_t leaf) const {
  if (leaf >= leaf_count_) {
    throw std::out_of_range("PoseidonTree::path: leaf " + std::to_string(leaf) + " of " + std::to_string(leaf_count_));
  }
  const std::uint64_t per_tree = leaf_count_ / base_levels_.size();
  const std::size_t tree = static_cast<std::size_t>(leaf / per_tree);
  std::uint64_t node = leaf % per_tree;
  PoseidonPath path;
  const auto& levels = base_levels_[tree];
  for (std::size_t level = 0; level + 1 < levels.size(); ++level) {
    const std::size_t index = static_cast<std::size_t>(node % shape_.base);
    const auto group = std::span<const Fr>(levels[level]).subspan(node - index, shape_.base);
    path.push_back(PathElement{others(group, index), index});
    node /= shape_.base;
  }
  if (shape_.sub != 0) {
    const std::size_t index = tree % shape_.sub;
    const std::size_t group = tree / shape_.sub;
    path.push_back(
        PathElement{others(std::span<const Fr>(base_roots_).subspan(group * shape_.sub, shape_.sub), index), index});
    if (shape_.top != 0) path.push_back(PathElement{others(sub_roots_, group), group});
  }
  return path;
}

Fr root_from_path(const Fr& leaf, const PoseidonPath& path) {
  Fr node = leaf;
  std::vector<Fr> children;
  for (std::size_t level = 0; level < path.size(); ++level) {
    const PathElement& e = path[level];
    if (e.index > e.hashes.size()) {
      throw std::invalid_argument("root_from_path: level " + std::to_string(level) + " index " +
                                  std::to_string(e.index) + " with " + std::to_string(e.hashes.size()) + " siblings");
    }
    children = e.hashes;
    children.insert(children.begin() + static_cast<std::ptrdiff_t>(e.index), node);
    node = hashers::poseidon::hash(children);
  }
  return node;
}

std::uint64_t path_leaf_index(const PoseidonPath& path, const TreeShape& shape) {
  const std::size_t extra = (shape.sub != 0 ? 1 : 0) + (shape.top != 0 ? 1 : 0);
  if (path.size() < extra) throw std::invalid_argument("path_leaf_index: path shorter than the tree's layers");
  const std::size_t base_levels = path.size() - extra;
  std::uint64_t index = 0;
  std::uint64_t weight = 1;
  for (std::size_t level = 0; level < base_levels; ++level) {
    index += path[level].index * weight;
    weight *= shape.base;
  }
  if (shape.sub != 0) {
    index += path[base_levels].index * weight;
    weight *= shape.sub;
  }
  if (shape.top != 0) index += path[base_levels + 1].index * weight;
  return index;
}

}  // namespace zkpipe::filecoin::core
