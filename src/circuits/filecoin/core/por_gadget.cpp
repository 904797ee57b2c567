#include "circuits/filecoin/core/por_gadget.hpp"

#include <bit>
#include <stdexcept>
#include <string>

#include "circuits/filecoin/core/constraint_gadgets.hpp"
#include "circuits/filecoin/core/insertion_gadget.hpp"
#include "circuits/filecoin/hashers/poseidon_gadget.hpp"
#include "gadgets/sha256.hpp"

namespace zkpipe::filecoin::core {

using gadgets::Boolean;

namespace {

bool valid_arity(std::size_t arity) { return arity >= 2 && std::has_single_bit(arity); }

void check_shape(const TreeShape& shape) {
  if (!valid_arity(shape.base) || (shape.sub != 0 && !valid_arity(shape.sub)) ||
      (shape.top != 0 && !valid_arity(shape.top)) || (shape.top != 0 && shape.sub == 0)) {
    throw std::invalid_argument("enforce_inclusion: tree shape " + std::to_string(shape.base) + "-" +
                                std::to_string(shape.sub) + "-" + std::to_string(shape.top) +
                                " (power-of-two arities, a top level only over a sub level)");
  }
}

AllocatedNum allocated(ConstraintSystem& cs, const Root& r, std::string_view label) {
  if (const auto* num = std::get_if<AllocatedNum>(&r)) return *num;
  auto s = cs.scope(label);
  return AllocatedNum::alloc(cs, std::get<Fr>(r));
}

// One layer's levels (SubPath::synthesize): returns the node above them.
AllocatedNum climb(ConstraintSystem& cs, TreeHash hash, std::size_t arity, std::span<const PathElement> levels,
                   std::size_t first_level, AllocatedNum cur, std::vector<Boolean>& path_bits) {
  const auto bit_count = static_cast<unsigned>(std::countr_zero(arity));
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const PathElement& level = levels[i];
    if (level.hashes.size() != arity - 1 || level.index >= arity) {
      throw std::invalid_argument("enforce_inclusion: path level " + std::to_string(first_level + i) + " has " +
                                  std::to_string(level.hashes.size()) + " siblings and index " +
                                  std::to_string(level.index) + ", arity " + std::to_string(arity) + " expected");
    }
    auto s = cs.scope("merkle tree hash", i);
    std::vector<Boolean> bits;
    bits.reserve(bit_count);
    for (unsigned b = 0; b < bit_count; ++b) bits.push_back(Boolean::alloc(cs, ((level.index >> b) & 1) != 0));
    path_bits.insert(path_bits.end(), bits.begin(), bits.end());
    std::vector<AllocatedNum> siblings;
    siblings.reserve(level.hashes.size());
    for (const Fr& h : level.hashes) siblings.push_back(AllocatedNum::alloc(cs, h));
    const std::vector<AllocatedNum> children = insert(cs, cur, bits, siblings);
    auto h = cs.scope("computation of commitment hash");
    cur = tree_node(cs, hash, children);
  }
  return cur;
}

}  // namespace

AllocatedNum tree_node(ConstraintSystem& cs, TreeHash hash, std::span<const AllocatedNum> children) {
  if (hash == TreeHash::kPoseidon) return hashers::poseidon::hash(cs, children);
  std::vector<Boolean> preimage;
  preimage.reserve(256 * children.size());
  for (std::size_t i = 0; i < children.size(); ++i) {
    auto s = cs.scope("num_into_bits", i);
    const std::vector<Boolean> bytes_msb_first = gadgets::reverse_bit_numbering(children[i].to_bits_le(cs));
    preimage.insert(preimage.end(), bytes_msb_first.begin(), bytes_msb_first.end());
  }
  std::vector<Boolean> digest;
  {
    auto s = cs.scope("hash");
    digest = gadgets::sha256::hash(cs, preimage);
  }
  const std::vector<Boolean> le = gadgets::reverse_bit_numbering(digest);
  auto s = cs.scope("pack_le");
  return gadgets::alloc_packed(cs, std::span(le).first(ff::Fr::kBits - 1));
}

void enforce_inclusion(ConstraintSystem& cs, TreeHash hash, const TreeShape& shape, const Root& leaf,
                       const std::vector<PathElement>& path, const Root& root, RootVisibility visibility) {
  check_shape(shape);
  const std::size_t upper = (shape.sub != 0 ? 1 : 0) + (shape.top != 0 ? 1 : 0);
  if (path.size() < upper + 1) {
    throw std::invalid_argument("enforce_inclusion: a path of " + std::to_string(path.size()) +
                                " levels for a tree with " + std::to_string(upper) + " levels above its base trees");
  }
  const std::size_t base_levels = path.size() - upper;
  const std::span<const PathElement> levels(path);

  AllocatedNum cur = allocated(cs, leaf, "value");
  std::vector<Boolean> path_bits;
  {
    auto s = cs.scope("base");
    cur = climb(cs, hash, shape.base, levels.first(base_levels), 0, cur, path_bits);
  }
  if (shape.sub != 0) {
    auto s = cs.scope("sub");
    cur = climb(cs, hash, shape.sub, levels.subspan(base_levels, 1), base_levels, cur, path_bits);
  }
  if (shape.top != 0) {
    auto s = cs.scope("top");
    cur = climb(cs, hash, shape.top, levels.subspan(base_levels + 1, 1), base_levels + 1, cur, path_bits);
  }
  {
    auto s = cs.scope("path");
    gadgets::pack_into_inputs(cs, path_bits);
  }
  const AllocatedNum rt = allocated(cs, root, "root_value");
  {
    auto s = cs.scope("enforce root is correct");
    enforce_equal(cs, cur, rt);
  }
  if (visibility == RootVisibility::kPublic) {
    auto s = cs.scope("root");
    rt.inputize(cs);
  }
}

std::vector<Fr> inclusion_public_inputs(std::uint64_t leaf_index, const std::optional<Fr>& public_root) {
  std::vector<Fr> inputs{Fr::from_u64(leaf_index)};
  if (public_root) inputs.push_back(*public_root);
  return inputs;
}

}  // namespace zkpipe::filecoin::core
