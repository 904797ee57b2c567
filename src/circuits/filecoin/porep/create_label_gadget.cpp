#include "circuits/filecoin/porep/create_label_gadget.hpp"

#include <stdexcept>
#include <string>

#include "gadgets/sha256.hpp"

namespace zkpipe::filecoin::porep {

using gadgets::Boolean;

namespace {

void pad_to_multiple(std::vector<Boolean>& bits, std::size_t multiple) {
  while (bits.size() % multiple != 0) bits.push_back(Boolean::constant(false));
}

}  // namespace

gadgets::AllocatedNum create_label_circuit(r1cs::ConstraintSystem& cs, std::span<const Boolean> replica_id,
                                        const std::vector<std::vector<Boolean>>& parents, const gadgets::UInt32& layer,
                                        const gadgets::UInt64& node) {
  if (replica_id.size() < 32 || replica_id.size() > 256) {
    throw std::invalid_argument("create_label_circuit: a replica id of 32 to 256 bits, got " +
                                std::to_string(replica_id.size()));
  }
  if (parents.size() != kCircuitLabelParents) {
    throw std::invalid_argument("create_label_circuit: 37 parents, got " + std::to_string(parents.size()));
  }
  auto s = cs.scope("create_label");
  std::vector<Boolean> preimage(replica_id.begin(), replica_id.end());
  preimage.reserve((2 + kCircuitLabelParents) * 256);
  pad_to_multiple(preimage, 256);
  for (const Boolean& b : layer.bits_be()) preimage.push_back(b);
  for (const Boolean& b : node.bits_be()) preimage.push_back(b);
  pad_to_multiple(preimage, 512);
  for (std::size_t i = 0; i < parents.size(); ++i) {
    if (parents[i].size() > 256) {
      throw std::invalid_argument("create_label_circuit: parent " + std::to_string(i) + " has " +
                                  std::to_string(parents[i].size()) + " bits, at most 256 expected");
    }
    preimage.insert(preimage.end(), parents[i].begin(), parents[i].end());
    pad_to_multiple(preimage, 256);
  }
  const std::vector<Boolean> digest = gadgets::sha256::hash(cs, preimage);
  const std::vector<Boolean> le = gadgets::reverse_bit_numbering(digest);
  return gadgets::alloc_packed(cs, std::span(le).first(ff::Fr::kBits - 1));
}

}  // namespace zkpipe::filecoin::porep
