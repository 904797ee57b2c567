#include "gadgets/merkle.hpp"

#include <stdexcept>
#include <tuple>

#include "gadgets/poseidon.hpp"
#include "gadgets/sha256.hpp"

namespace zkpipe::gadgets::merkle {

namespace {

// Bit positions, in SHA-256 order, of the two bits a trimmed node clears: the two
// most significant bits of byte 31.
constexpr std::size_t kTrimmedBit0 = 8 * 31;
constexpr std::size_t kTrimmedBit1 = 8 * 31 + 1;

// One-hot selectors s_k = [digit == k] for a 3-bit digit (bits little-endian):
// 5 constraints. With b01 = b0·b1 the four low-digit selectors are linear, and
// each is split by b2 with one product.
std::array<Num, hash::merkle::kPoseidonArity> one_hot_digit(r1cs::ConstraintSystem& cs, std::span<const Boolean, 3> bits) {
  const Boolean b01 = and_of(cs, bits[0], bits[1]);
  const r1cs::LC one = r1cs::LC(r1cs::Variable::one());
  const std::array<r1cs::LC, 4> low_lc = {one - bits[0].lc() - bits[1].lc() + b01.lc(), bits[0].lc() - b01.lc(),
                                    bits[1].lc() - b01.lc(), b01.lc()};
  const unsigned low_digit = bits[0].value() + 2u * bits[1].value();
  std::array<Num, hash::merkle::kPoseidonArity> s;
  for (unsigned m = 0; m < 4; ++m) {
    const bool low_matches = low_digit == m;
    const bool high_value = low_matches && bits[2].value();
    const AllocatedNum high = AllocatedNum::alloc(cs, high_value ? ff::Fr::one() : ff::Fr::zero());
    cs.enforce(low_lc[m], bits[2].lc(), high.lc());
    s[m + 4] = Num::of(high);
    s[m] = Num{low_lc[m] - high.lc(), (low_matches && !bits[2].value()) ? ff::Fr::one() : ff::Fr::zero()};
  }
  return s;
}

}  // namespace

std::vector<Boolean> alloc_index_bits(r1cs::ConstraintSystem& cs, std::uint64_t index, std::size_t count,
                                      IndexVisibility visibility) {
  auto s = cs.scope("index");
  std::vector<bool> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = i < 64 && ((index >> i) & 1) != 0;
  std::vector<Boolean> bits = alloc_bits(cs, values);
  if (visibility == IndexVisibility::kPublic) inputize_packed(cs, bits);
  return bits;
}

Num pack_node(std::span<const Boolean> node_bits) {
  if (node_bits.size() != 256) throw std::invalid_argument("pack_node: a node is 256 bits");
  if (!node_bits[kTrimmedBit0].is_constant() || !node_bits[kTrimmedBit1].is_constant() ||
      node_bits[kTrimmedBit0].value() || node_bits[kTrimmedBit1].value()) {
    throw std::invalid_argument("pack_node: the two top bits must be constant zero");
  }
  std::vector<Boolean> le(254);
  for (std::size_t byte = 0; byte < 32; ++byte) {
    for (std::size_t j = 0; j < 8; ++j) {
      const std::size_t weight = 8 * byte + (7 - j);
      if (weight < 254) le[weight] = node_bits[8 * byte + j];
    }
  }
  return pack_bits_le(le);
}

std::vector<Boolean> sha256_node(r1cs::ConstraintSystem& cs, std::span<const Boolean> left,
                                 std::span<const Boolean> right) {
  std::vector<Boolean> message(left.begin(), left.end());
  message.insert(message.end(), right.begin(), right.end());
  std::vector<Boolean> digest = sha256::hash(cs, message);
  digest[kTrimmedBit0] = Boolean::constant(false);
  digest[kTrimmedBit1] = Boolean::constant(false);
  return digest;
}

Num sha256_root(r1cs::ConstraintSystem& cs, std::span<const Boolean> leaf_bits, std::span<const hash::merkle::Node> siblings,
                std::span<const Boolean> index_bits) {
  if (leaf_bits.size() != 256 || index_bits.size() != siblings.size()) {
    throw std::invalid_argument("sha256_root: need a 256-bit leaf and one index bit per level");
  }
  auto s = cs.scope("sha256 merkle path");
  std::vector<Boolean> cur(leaf_bits.begin(), leaf_bits.end());
  for (std::size_t level = 0; level < siblings.size(); ++level) {
    auto sl = cs.scope("level", level);
    const std::vector<Boolean> sibling = alloc_bits(cs, bytes_to_bits_be(siblings[level]));
    std::vector<Boolean> left(256);
    std::vector<Boolean> right(256);
    for (std::size_t i = 0; i < 256; ++i) {
      std::tie(left[i], right[i]) = conditional_swap(cs, index_bits[level], cur[i], sibling[i]);
    }
    cur = sha256_node(cs, left, right);
  }
  if (siblings.empty()) {
    cur[kTrimmedBit0] = Boolean::constant(false);
    cur[kTrimmedBit1] = Boolean::constant(false);
  }
  return pack_node(cur);
}

Num poseidon_root(r1cs::ConstraintSystem& cs, const Num& leaf,
                  std::span<const std::array<ff::Fr, hash::merkle::kPoseidonArity - 1>> siblings, std::span<const Boolean> index_bits) {
  if (index_bits.size() != 3 * siblings.size()) {
    throw std::invalid_argument("poseidon_root: need three index bits per level");
  }
  auto s = cs.scope("poseidon merkle path");
  Num cur = leaf;
  for (std::size_t level = 0; level < siblings.size(); ++level) {
    auto sl = cs.scope("level", level);
    const std::span<const Boolean, 3> digit_bits = index_bits.subspan(3 * level).first<3>();
    const unsigned digit = digit_bits[0].value() + 2u * digit_bits[1].value() + 4u * digit_bits[2].value();
    // The eight children are witnessed; the one at the index must equal the
    // current node: s_k·(child_k − cur) = 0 for every k.
    const std::array<ff::Fr, hash::merkle::kPoseidonArity> values = hash::merkle::insert_child(siblings[level], cur.value, digit);
    const std::array<Num, hash::merkle::kPoseidonArity> selectors = one_hot_digit(cs, digit_bits);
    std::vector<Num> children;
    children.reserve(hash::merkle::kPoseidonArity);
    for (std::size_t k = 0; k < hash::merkle::kPoseidonArity; ++k) {
      const AllocatedNum child = AllocatedNum::alloc(cs, values[k]);
      cs.enforce(selectors[k].lc, child.lc() - cur.lc, r1cs::LC());
      children.push_back(Num::of(child));
    }
    cur = poseidon::hash(cs, hash::poseidon::params_t9(), children);
  }
  return cur;
}

}  // namespace zkpipe::gadgets::merkle
