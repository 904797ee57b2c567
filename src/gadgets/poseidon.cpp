#include "gadgets/poseidon.hpp"

#include <array>
#include <stdexcept>

#include "hash/poseidon.hpp"

namespace zkpipe::gadgets::poseidon {

namespace {

Num pow5(r1cs::ConstraintSystem& cs, const Num& x) {
  const ff::Fr x2_value = x.value.square();
  const ff::Fr x4_value = x2_value.square();
  const ff::Fr x5_value = x4_value * x.value;
  const AllocatedNum x2 = AllocatedNum::alloc(cs, x2_value);
  cs.enforce(x.lc, x.lc, x2.lc());
  const AllocatedNum x4 = AllocatedNum::alloc(cs, x4_value);
  cs.enforce(x2.lc(), x2.lc(), x4.lc());
  const AllocatedNum x5 = AllocatedNum::alloc(cs, x5_value);
  cs.enforce(x4.lc(), x.lc, x5.lc());
  return Num::of(x5);
}

std::vector<Num> mix(const hash::poseidon::Params& p, const std::vector<Num>& state) {
  std::vector<Num> out;
  out.reserve(p.t);
  for (std::size_t i = 0; i < p.t; ++i) {
    Num acc{r1cs::LC(), ff::Fr::zero()};
    for (std::size_t j = 0; j < p.t; ++j) {
      Num term = state[j];
      term *= p.mds_at(i, j);
      acc += term;
    }
    acc.lc.compact();
    out.push_back(std::move(acc));
  }
  return out;
}

// The values-only permutation: the same S-box variables (x², x⁴, x⁵ per S-box, in
// order) from native field arithmetic, with no linear combination built.
std::vector<Num> permute_values(r1cs::ConstraintSystem& cs, const hash::poseidon::Params& p, const std::vector<Num>& state) {
  std::vector<ff::Fr> x(p.t);
  for (std::size_t i = 0; i < p.t; ++i) x[i] = state[i].value;
  std::vector<ff::Fr> mixed(p.t);
  auto sbox = [&](ff::Fr& v) {
    const ff::Fr x2 = v.square();
    const ff::Fr x4 = x2.square();
    v = x4 * v;
    for (const ff::Fr* w : std::array<const ff::Fr*, 3>{&x2, &x4, &v}) cs.alloc([w] { return *w; });
    cs.skip_constraints(3);
  };
  const std::size_t half_full = p.full_rounds / 2;
  const std::size_t rounds = p.full_rounds + p.partial_rounds;
  const ff::Fr* rc = p.round_constants.data();
  for (std::size_t r = 0; r < rounds; ++r) {
    const bool full = r < half_full || r >= half_full + p.partial_rounds;
    for (ff::Fr& v : x) v += *rc++;
    if (full) {
      for (ff::Fr& v : x) sbox(v);
    } else {
      sbox(x[0]);
    }
    for (std::size_t i = 0; i < p.t; ++i) {
      ff::Fr acc = ff::Fr::zero();
      for (std::size_t j = 0; j < p.t; ++j) acc += p.mds_at(i, j) * x[j];
      mixed[i] = acc;
    }
    x.swap(mixed);
  }
  std::vector<Num> out;
  out.reserve(p.t);
  for (const ff::Fr& v : x) out.push_back(Num{r1cs::LC(), v});
  return out;
}

}  // namespace

std::vector<Num> permute(r1cs::ConstraintSystem& cs, const hash::poseidon::Params& p, std::vector<Num> state) {
  if (state.size() != p.t) throw std::invalid_argument("poseidon::permute: state size is not t");
  auto s = cs.scope("poseidon");
  if (cs.values_only()) return permute_values(cs, p, state);
  const std::size_t half_full = p.full_rounds / 2;
  const std::size_t rounds = p.full_rounds + p.partial_rounds;
  const ff::Fr* rc = p.round_constants.data();
  for (std::size_t r = 0; r < rounds; ++r) {
    auto sr = cs.scope("round", r);
    const bool full = r < half_full || r >= half_full + p.partial_rounds;
    for (Num& x : state) x += Num::constant(*rc++);
    if (full) {
      for (Num& x : state) x = pow5(cs, x);
    } else {
      state[0].lc.compact();
      state[0] = pow5(cs, state[0]);
    }
    state = mix(p, state);
  }
  return state;
}

Num hash(r1cs::ConstraintSystem& cs, const hash::poseidon::Params& p, std::span<const Num> inputs) {
  if (inputs.size() != p.arity()) throw std::invalid_argument("poseidon::hash: input count is not the arity");
  std::vector<Num> state;
  state.reserve(p.t);
  state.push_back(Num::constant(hash::poseidon::merkle_domain_tag(p.arity())));
  state.insert(state.end(), inputs.begin(), inputs.end());
  return permute(cs, p, std::move(state))[1];
}

}  // namespace zkpipe::gadgets::poseidon
