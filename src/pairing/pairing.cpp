#include "pairing/pairing.hpp"

#include <vector>

namespace zkpipe::pairing {

ff::Fp12 pairing(const G1Affine& p, const G2Affine& q) {
  const std::pair<G1Affine, G2Affine> pair{p, q};
  return multi_pairing(std::span(&pair, 1));
}

ff::Fp12 multi_pairing(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
  std::vector<G2Prepared> prepared;
  prepared.reserve(pairs.size());
  for (const auto& [p, q] : pairs) prepared.emplace_back(p.is_identity() ? G2Affine::identity() : q);
  std::vector<PreparedPair> terms;
  terms.reserve(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) terms.push_back({pairs[i].first, &prepared[i]});
  return multi_pairing(terms);
}

ff::Fp12 multi_pairing(std::span<const PreparedPair> terms) {
  return final_exponentiation(miller_loop(terms));
}

}  // namespace zkpipe::pairing
