#include "circuits/filecoin/hashers/poseidon_hash.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "hash/poseidon.hpp"

namespace zkpipe::filecoin::hashers::poseidon {

Fr merkle_tree_tag(std::size_t arity) {
  if (arity == 0 || arity > 63) throw std::invalid_argument("merkle_tree_tag: arity out of range");
  return Fr::from_u64((std::uint64_t{1} << arity) - 1);
}

Fr constant_length_tag(std::size_t length) {
  const Fr two_64 = Fr::from_u64(std::uint64_t{1} << 32) * Fr::from_u64(std::uint64_t{1} << 32);
  return Fr::from_u64(length) * two_64;
}

Fr hash_with_tag(const Constants& c, const Fr& tag, std::span<const Fr> preimage) {
  if (preimage.size() > c.arity()) {
    throw std::invalid_argument("poseidon hash: " + std::to_string(preimage.size()) +
                                " elements do not fit arity " + std::to_string(c.arity()));
  }
  std::vector<Fr> state(c.width(), Fr::zero());
  state[0] = tag;
  std::copy(preimage.begin(), preimage.end(), state.begin() + 1);
  hash::poseidon::permute(c.plain, state);
  return state[1];
}

Fr hash(std::span<const Fr> preimage) {
  const std::size_t arity = preimage.size();
  return hash_with_tag(constants(arity), merkle_tree_tag(arity), preimage);
}

Fr hash_md(std::span<const Fr> input) {
  constexpr std::size_t kArity = 36;
  if (input.size() < 2) throw std::invalid_argument("poseidon hash_md: needs at least two elements");
  const Constants& c = constants(kArity);
  const Fr tag = merkle_tree_tag(kArity);
  Fr acc = input[0];
  std::vector<Fr> preimage;
  for (std::size_t next = 1; next < input.size(); next += kArity - 1) {
    const std::size_t take = std::min(kArity - 1, input.size() - next);
    preimage.assign(1, acc);
    preimage.insert(preimage.end(), input.begin() + next, input.begin() + next + take);
    acc = hash_with_tag(c, tag, preimage);
  }
  return acc;
}

}  // namespace zkpipe::filecoin::hashers::poseidon
