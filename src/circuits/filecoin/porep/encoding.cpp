#include "circuits/filecoin/porep/encoding.hpp"

#include <stdexcept>
#include <string>

#include "ff/fr.hpp"

namespace zkpipe::filecoin::porep {
namespace {

using ff::Fr;

Fr to_fr(const core::NodeBytes& bytes, const char* what) {
  Fr::Repr limbs{};
  for (std::size_t i = 0; i < bytes.size(); ++i) limbs[i / 8] |= std::uint64_t{bytes[i]} << (8 * (i % 8));
  const std::optional<Fr> value = Fr::from_canonical(limbs);
  if (!value) throw std::invalid_argument(std::string("SDR encoding: ") + what + " is not below the Fr modulus");
  return *value;
}

core::NodeBytes to_bytes(const Fr& value) {
  const Fr::Repr limbs = value.to_canonical();
  core::NodeBytes out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<std::uint8_t>(limbs[i / 8] >> (8 * (i % 8)));
  return out;
}

}  // namespace

core::NodeBytes encode(const core::NodeBytes& key, const core::NodeBytes& data) {
  return to_bytes(to_fr(key, "key") + to_fr(data, "data"));
}

core::NodeBytes decode(const core::NodeBytes& key, const core::NodeBytes& replica) {
  return to_bytes(to_fr(replica, "replica") - to_fr(key, "key"));
}

}  // namespace zkpipe::filecoin::porep
