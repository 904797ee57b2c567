#include "circuits/filecoin/update/update_randomness.hpp"

#include <stdexcept>
#include <string>

#include "circuits/filecoin/hashers/poseidon_constants.hpp"
#include "circuits/filecoin/hashers/poseidon_hash.hpp"
#include "circuits/filecoin/hashers/sha256_domain.hpp"

namespace zkpipe::filecoin::update {

namespace {

Fr randomness_hash(const Fr& a, const Fr& b) {
  const Fr preimage[] = {a, b};
  return hashers::poseidon::hash_with_tag(hashers::poseidon::constants(2), update_randomness_tag(), preimage);
}

// Bit i of the little-endian bytes, least significant first.
bool bit_of(const hashers::Sha256Domain& le_bytes, std::size_t i) { return ((le_bytes[i / 8] >> (i % 8)) & 1) != 0; }

}  // namespace

Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old) { return randomness_hash(comm_d_new, comm_r_old); }

Fr update_rho(const UpdateShape& shape, const Fr& phi, std::size_t h_index, std::uint64_t node) {
  if (h_index >= shape.hs.size()) throw std::invalid_argument("update_rho: h index past the six h values");
  const std::size_t low_bits = shape.challenge_bits() - shape.hs[h_index];
  return randomness_hash(phi, Fr::from_u64(node >> low_bits));
}

std::vector<std::uint64_t> update_challenges(const UpdateShape& shape, const Fr& comm_r_new, std::uint64_t k) {
  if (k >= shape.partitions) {
    throw std::invalid_argument("update_challenges: partition " + std::to_string(k) + " of " +
                                std::to_string(shape.partitions));
  }
  const std::size_t bits = shape.challenge_bits() - shape.partition_bits();
  const std::size_t per_digest = (Fr::kBits - 1) / bits;
  const std::size_t digests = (shape.challenge_count + per_digest - 1) / per_digest;
  std::vector<std::uint64_t> out;
  for (std::size_t j = 0; j < digests; ++j) {
    const hashers::Sha256Domain digest =
        hashers::fr_to_domain(randomness_hash(comm_r_new, Fr::from_u64(digests * k + j)));
    for (std::size_t c = 0; c < per_digest && out.size() < shape.challenge_count; ++c) {
      std::uint64_t value = 0;
      for (std::size_t b = 0; b < bits; ++b) value |= std::uint64_t{bit_of(digest, c * bits + b)} << b;
      out.push_back(value | (k << bits));
    }
  }
  return out;
}

}  // namespace zkpipe::filecoin::update
