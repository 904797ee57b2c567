#include "circuits/filecoin/core/tree_d.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace zkpipe::filecoin::core {

namespace {

bool is_node_power_of_two(std::uint64_t bytes) {
  if (bytes < 32 || bytes % 32 != 0) return false;
  const std::uint64_t nodes = bytes / 32;
  return (nodes & (nodes - 1)) == 0;
}

}  // namespace

hash::merkle::Sha256Tree build_tree_d(std::span<const std::uint8_t> padded_data) {
  if (!is_node_power_of_two(padded_data.size())) {
    throw std::invalid_argument("tree_d: padded data of " + std::to_string(padded_data.size()) +
                                " bytes is not 32·2^k bytes");
  }
  std::vector<hash::merkle::Node> leaves(padded_data.size() / 32);
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    std::copy_n(padded_data.begin() + static_cast<std::ptrdiff_t>(32 * i), 32, leaves[i].begin());
  }
  return hash::merkle::Sha256Tree(std::move(leaves));
}

hashers::Sha256Domain zero_comm_d(std::uint64_t padded_size) {
  if (!is_node_power_of_two(padded_size)) {
    throw std::invalid_argument("zero_comm_d: " + std::to_string(padded_size) + " bytes is not 32·2^k bytes");
  }
  hashers::Sha256Domain node{};
  for (std::uint64_t width = 32; width < padded_size; width *= 2) node = hashers::sha256_hash2(node, node);
  return node;
}

}  // namespace zkpipe::filecoin::core
