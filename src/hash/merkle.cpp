#include "hash/merkle.hpp"

#include <stdexcept>

#include "hash/poseidon.hpp"

namespace zkpipe::hash::merkle {

Node sha256_node(const Node& left, const Node& right) {
  std::array<std::uint8_t, 64> message{};
  std::copy(left.begin(), left.end(), message.begin());
  std::copy(right.begin(), right.end(), message.begin() + 32);
  Node node = sha256::hash(message);
  node[31] &= 0x3f;
  return node;
}

Fr node_to_fr(const Node& node) {
  ff::Limbs<4> limbs{};
  for (std::size_t i = 0; i < 32; ++i) limbs[i / 8] |= std::uint64_t{node[i]} << (8 * (i % 8));
  auto fr = Fr::from_canonical(limbs);
  if (!fr) throw std::invalid_argument("node_to_fr: node is not below the field modulus");
  return *fr;
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

PoseidonTree::PoseidonTree(std::vector<Fr> leaves) {
  std::size_t n = leaves.size();
  while (n > 1 && n % kPoseidonArity == 0) n /= kPoseidonArity;
  if (leaves.empty() || n != 1) throw std::invalid_argument("PoseidonTree: leaf count must be a power of 8");
  const poseidon::Params& params = poseidon::params_t9();
  levels_.push_back(std::move(leaves));
  while (levels_.back().size() > 1) {
    const std::vector<Fr>& below = levels_.back();
    std::vector<Fr> above(below.size() / kPoseidonArity);
    for (std::size_t i = 0; i < above.size(); ++i) {
      above[i] = poseidon::hash(params, std::span<const Fr>(below).subspan(kPoseidonArity * i, kPoseidonArity));
    }
    levels_.push_back(std::move(above));
  }
}

PoseidonPath PoseidonTree::path(std::uint64_t index) const {
  if (index >= levels_[0].size()) throw std::out_of_range("PoseidonTree::path: index");
  PoseidonPath p{{}, index};
  std::uint64_t node = index;
  for (std::size_t level = 0; level + 1 < levels_.size(); ++level) {
    const std::uint64_t first = node - node % kPoseidonArity;
    std::array<Fr, kPoseidonArity - 1> siblings{};
    std::size_t k = 0;
    for (std::uint64_t c = first; c < first + kPoseidonArity; ++c) {
      if (c != node) siblings[k++] = levels_[level][c];
    }
    p.siblings.push_back(siblings);
    node /= kPoseidonArity;
  }
  return p;
}

std::array<Fr, kPoseidonArity> insert_child(const std::array<Fr, kPoseidonArity - 1>& siblings, const Fr& node,
                                            std::size_t position) {
  std::array<Fr, kPoseidonArity> children{};
  for (std::size_t k = 0, s = 0; k < kPoseidonArity; ++k) children[k] = (k == position) ? node : siblings[s++];
  return children;
}

Fr poseidon_root_from_path(const Fr& leaf, const PoseidonPath& path) {
  Fr cur = leaf;
  std::uint64_t index = path.index;
  for (const auto& siblings : path.siblings) {
    cur = poseidon::hash(poseidon::params_t9(), insert_child(siblings, cur, index % kPoseidonArity));
    index /= kPoseidonArity;
  }
  return cur;
}

}  // namespace zkpipe::hash::merkle
