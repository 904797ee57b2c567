#include "circuits/filecoin/hashers/sha256_domain.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "hash/sha256.hpp"

namespace zkpipe::filecoin::hashers {

Sha256Domain trimmed_sha256(std::span<const std::uint8_t> data) {
  Sha256Domain d = hash::sha256::hash(data);
  d[31] &= 0x3f;
  return d;
}

Sha256Domain sha256_hash2(const Sha256Domain& left, const Sha256Domain& right) {
  std::array<std::uint8_t, 64> message{};
  std::copy(left.begin(), left.end(), message.begin());
  std::copy(right.begin(), right.end(), message.begin() + 32);
  return trimmed_sha256(message);
}

ff::Fr domain_to_fr(const Sha256Domain& node) {
  ff::Limbs<4> limbs{};
  for (std::size_t i = 0; i < 32; ++i) limbs[i / 8] |= std::uint64_t{node[i]} << (8 * (i % 8));
  auto fr = ff::Fr::from_canonical(limbs);
  if (!fr) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string hex;
    for (std::uint8_t b : node) {
      hex += kDigits[b >> 4];
      hex += kDigits[b & 15];
    }
    throw std::invalid_argument("domain_to_fr: 32 bytes " + hex + " (little-endian) are not below the Fr modulus");
  }
  return *fr;
}

Sha256Domain fr_to_domain(const ff::Fr& x) {
  const ff::Limbs<4> limbs = x.to_canonical();
  Sha256Domain out{};
  for (std::size_t i = 0; i < 32; ++i) out[i] = static_cast<std::uint8_t>(limbs[i / 8] >> (8 * (i % 8)));
  return out;
}

}  // namespace zkpipe::filecoin::hashers
