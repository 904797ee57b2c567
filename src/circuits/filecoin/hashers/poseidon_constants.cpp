#include "circuits/filecoin/hashers/poseidon_constants.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "hash/grain_lfsr.hpp"

namespace zkpipe::filecoin::hashers::poseidon {

namespace {

struct RoundNumbers {
  std::size_t arity;
  std::size_t standard_partial;
  std::size_t strengthened_partial;
};

// neptune round_numbers.rs (calc_round_numbers with its security margin, 128-bit
// security, 256-bit field) and its 25 % strengthening, as its tests list them.
constexpr std::array<RoundNumbers, 7> kRoundNumbers{{
    {2, 55, 69},
    {4, 56, 70},
    {8, 57, 72},
    {11, 57, 72},
    {16, 59, 74},
    {24, 59, 74},
    {36, 60, 75},
}};

constexpr std::size_t kFullRounds = 8;

const RoundNumbers& round_numbers(std::size_t arity) {
  for (const RoundNumbers& r : kRoundNumbers) {
    if (r.arity == arity) return r;
  }
  throw std::invalid_argument("filecoin poseidon: arity " + std::to_string(arity) +
                              " is not one of 2, 4, 8, 11, 16, 24, 36");
}

SquareMatrix cauchy_mds(std::size_t t) {
  SquareMatrix m(t);
  for (std::size_t i = 0; i < t; ++i) {
    for (std::size_t j = 0; j < t; ++j) m.at(i, j) = Fr::from_u64(i + t + j).inverse();
  }
  return m;
}

SquareMatrix inverse_of(const SquareMatrix& m, const char* what) {
  auto inv = m.inverse();
  if (!inv) throw std::logic_error(std::string("filecoin poseidon: singular ") + what);
  return *std::move(inv);
}

std::vector<Fr> add(std::span<const Fr> a, std::span<const Fr> b) {
  std::vector<Fr> out(a.begin(), a.end());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] += b[i];
  return out;
}

// neptune's compress_round_constants with every partial round preprocessed: each
// round's constants are pushed back through the MDS inverse so that they are added
// right after the previous round's S-boxes; through the partial rounds only the
// first cell's share stays in the round (after its single S-box) and the rest keeps
// moving back, landing after the last first-half S-box layer.
std::vector<Fr> compress_round_constants(const hash::poseidon::Params& p, const SquareMatrix& mds_inverse) {
  const std::size_t t = p.t;
  const std::size_t half = p.full_rounds / 2;
  auto round_keys = [&](std::size_t r) { return std::span<const Fr>(p.round_constants).subspan(r * t, t); };
  std::vector<Fr> out;
  out.reserve(p.full_rounds * t + p.partial_rounds);
  auto append = [&](std::span<const Fr> v) { out.insert(out.end(), v.begin(), v.end()); };

  append(round_keys(0));
  for (std::size_t r = 1; r < half; ++r) append(mds_inverse.times_column(round_keys(r)));

  std::vector<Fr> acc(round_keys(half + p.partial_rounds).begin(), round_keys(half + p.partial_rounds).end());
  std::vector<Fr> partial_keys;
  partial_keys.reserve(p.partial_rounds);
  for (std::size_t i = 0; i < p.partial_rounds; ++i) {
    std::vector<Fr> inverted = mds_inverse.times_column(acc);
    partial_keys.push_back(inverted[0]);
    inverted[0] = Fr::zero();
    acc = add(round_keys(half + p.partial_rounds - i - 1), inverted);
  }
  append(mds_inverse.times_column(acc));
  out.insert(out.end(), partial_keys.rbegin(), partial_keys.rend());

  for (std::size_t r = 1; r < half; ++r) append(mds_inverse.times_column(round_keys(half + p.partial_rounds + r)));
  return out;
}

// neptune's M' (first row e_0, lower-right block kept) and M'' (first row kept,
// first column below it M̂⁻¹·w, identity elsewhere), with M = M'·M''.
struct Factors {
  SquareMatrix prime;
  SquareMatrix double_prime;
};

Factors factor(const SquareMatrix& m) {
  const std::size_t t = m.size();
  const SquareMatrix hat_inverse = inverse_of(m.minor(0, 0), "MDS minor");
  std::vector<Fr> w(t - 1);
  for (std::size_t i = 1; i < t; ++i) w[i - 1] = m.at(i, 0);
  const std::vector<Fr> w_hat = hat_inverse.times_column(w);

  Factors f{SquareMatrix(t), SquareMatrix(t)};
  f.prime.at(0, 0) = Fr::one();
  for (std::size_t i = 1; i < t; ++i) {
    for (std::size_t j = 1; j < t; ++j) f.prime.at(i, j) = m.at(i, j);
  }
  for (std::size_t j = 0; j < t; ++j) f.double_prime.at(0, j) = m.at(0, j);
  for (std::size_t i = 1; i < t; ++i) {
    f.double_prime.at(i, 0) = w_hat[i - 1];
    f.double_prime.at(i, i) = Fr::one();
  }
  return f;
}

// neptune's factor_to_sparse_matrixes: peel one sparse factor per partial round off
// the back, folding the dense remainder into the round before; what is left after
// all partial rounds is the pre-sparse matrix.
void factor_partial_rounds(const SquareMatrix& mds, std::size_t partial_rounds, Constants& c) {
  SquareMatrix current = mds;
  std::vector<SparseMatrix> peeled;
  peeled.reserve(partial_rounds);
  for (std::size_t r = 0; r < partial_rounds; ++r) {
    Factors f = factor(current);
    SparseMatrix s;
    for (std::size_t i = 0; i < current.size(); ++i) s.w_hat.push_back(f.double_prime.at(i, 0));
    for (std::size_t j = 1; j < current.size(); ++j) s.v_rest.push_back(f.double_prime.at(0, j));
    peeled.push_back(std::move(s));
    current = mds * f.prime;
  }
  c.pre_sparse_matrix = std::move(current);
  c.sparse_matrices.assign(std::make_move_iterator(peeled.rbegin()), std::make_move_iterator(peeled.rend()));
}

template <std::size_t Arity, Strength S>
const Constants& instance() {
  static const Constants c = make_constants(Arity, S);
  return c;
}

}  // namespace

std::size_t full_rounds(std::size_t arity) {
  round_numbers(arity);
  return kFullRounds;
}

std::size_t partial_rounds(std::size_t arity, Strength strength) {
  const RoundNumbers& r = round_numbers(arity);
  return strength == Strength::kStandard ? r.standard_partial : r.strengthened_partial;
}

Constants make_constants(std::size_t arity, Strength strength) {
  const std::size_t t = arity + 1;
  Constants c;
  hash::poseidon::Params& p = c.plain;
  p.t = t;
  p.full_rounds = full_rounds(arity);
  p.partial_rounds = partial_rounds(arity, strength);

  hash::poseidon::GrainLfsr lfsr(static_cast<unsigned>(Fr::kBits), static_cast<unsigned>(t),
                                 static_cast<unsigned>(p.full_rounds), static_cast<unsigned>(p.partial_rounds),
                                 hash::poseidon::GrainLfsr::kSboxNeptune);
  p.round_constants.resize((p.full_rounds + p.partial_rounds) * t);
  for (Fr& rc : p.round_constants) rc = lfsr.next_fr_rejection_sampled();

  c.mds = cauchy_mds(t);
  p.mds.assign(t * t, Fr::zero());
  for (std::size_t i = 0; i < t; ++i) {
    for (std::size_t j = 0; j < t; ++j) p.mds[i * t + j] = c.mds.at(i, j);
  }

  c.compressed_round_constants = compress_round_constants(p, inverse_of(c.mds, "MDS matrix"));
  // neptune factors the transpose of M (symmetric here, so M itself).
  factor_partial_rounds(c.mds.transpose(), p.partial_rounds, c);
  return c;
}

const Constants& constants(std::size_t arity, Strength strength) {
  // Each instance is derived once, on first use (thread-safe static initialization),
  // and never changes after.
  const bool standard = strength == Strength::kStandard;
  switch (arity) {
    case 2: return standard ? instance<2, Strength::kStandard>() : instance<2, Strength::kStrengthened>();
    case 4: return standard ? instance<4, Strength::kStandard>() : instance<4, Strength::kStrengthened>();
    case 8: return standard ? instance<8, Strength::kStandard>() : instance<8, Strength::kStrengthened>();
    case 11: return standard ? instance<11, Strength::kStandard>() : instance<11, Strength::kStrengthened>();
    case 16: return standard ? instance<16, Strength::kStandard>() : instance<16, Strength::kStrengthened>();
    case 24: return standard ? instance<24, Strength::kStandard>() : instance<24, Strength::kStrengthened>();
    case 36: return standard ? instance<36, Strength::kStandard>() : instance<36, Strength::kStrengthened>();
    default: round_numbers(arity);  // throws, naming the supported arities
  }
  throw std::logic_error("filecoin poseidon: unreachable");
}

}  // namespace zkpipe::filecoin::hashers::poseidon
