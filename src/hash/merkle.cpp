#include "hash/merkle.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace zkpipe::hash::merkle {

Node sha256_node(const Node& left, const Node& right) {
  std::array<std::uint8_t, 64> message{};
  std::copy(left.begin(), left.end(), message.begin());
  std::copy(right.begin(), right.end(), message.begin() + 32);
  Node node = sha256::hash(message);
  node[31] &= 0x3f;
  return node;
}

Sha256Tree::Sha256Tree(std::vector<Node> leaves) {
  if (leaves.empty() || (leaves.size() & (leaves.size() - 1)) != 0) {
    throw std::invalid_argument("Sha256Tree: leaf count must be a power of two");
  }
  levels_.push_back(std::move(leaves));
  while (levels_.back().size() > 1) {
    const std::vector<Node>& below = levels_.back();
    std::vector<Node> above(below.size() / 2);
    for (std::size_t i = 0; i < above.size(); ++i) above[i] = sha256_node(below[2 * i], below[2 * i + 1]);
    levels_.push_back(std::move(above));
  }
}

Sha256Path Sha256Tree::path(std::uint64_t index) const {
  if (index >= levels_[0].size()) throw std::out_of_range("Sha256Tree::path: index");
  Sha256Path p{{}, index};
  for (std::size_t level = 0; level + 1 < levels_.size(); ++level) {
    p.siblings.push_back(levels_[level][(index >> level) ^ 1]);
  }
  return p;
}

Node sha256_root_from_path(const Node& leaf, const Sha256Path& path) {
  Node cur = leaf;
  for (std::size_t level = 0; level < path.siblings.size(); ++level) {
    const bool is_right = ((path.index >> level) & 1) != 0;
    cur = is_right ? sha256_node(path.siblings[level], cur) : sha256_node(cur, path.siblings[level]);
  }
  return cur;
}

}  // namespace zkpipe::hash::merkle
