#include "hash/poseidon.hpp"

#include <stdexcept>
#include <vector>

namespace zkpipe::hash::poseidon {

namespace {

Fr pow5(const Fr& x) {
  const Fr x2 = x.square();
  return x2.square() * x;
}

void mix(const Params& p, std::span<Fr> state) {
  std::vector<Fr> out(p.t, Fr::zero());
  for (std::size_t i = 0; i < p.t; ++i) {
    for (std::size_t j = 0; j < p.t; ++j) out[i] += p.mds_at(i, j) * state[j];
  }
  std::copy(out.begin(), out.end(), state.begin());
}

}  // namespace

void permute(const Params& p, std::span<Fr> state) {
  if (state.size() != p.t) throw std::invalid_argument("poseidon::permute: state size is not t");
  const std::size_t half_full = p.full_rounds / 2;
  const std::size_t rounds = p.full_rounds + p.partial_rounds;
  const Fr* rc = p.round_constants.data();
  for (std::size_t r = 0; r < rounds; ++r) {
    const bool full = r < half_full || r >= half_full + p.partial_rounds;
    for (std::size_t i = 0; i < p.t; ++i) state[i] += *rc++;
    if (full) {
      for (Fr& x : state) x = pow5(x);
    } else {
      state[0] = pow5(state[0]);
    }
    mix(p, state);
  }
}

}  // namespace zkpipe::hash::poseidon
