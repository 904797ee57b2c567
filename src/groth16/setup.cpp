#include "groth16/setup.hpp"

#include <random>

#include "ec/fixed_base.hpp"
#include "ec/generators.hpp"
#include "groth16/qap.hpp"
#include "poly/evaluation_domain.hpp"

namespace zkpipe::groth16 {

using ff::Fr;

ToxicWaste ToxicWaste::from_seed(std::uint64_t seed) {
  // A seeded, non-cryptographic generator is enough here: the seed is public by
  // design (see the header), so there is nothing for a stronger generator to hide.
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                    0x67726f74u, 0x68313673u};
  std::mt19937_64 rng(seq);
  auto nonzero = [&] {
    for (;;) {
      Fr x = Fr::random(rng);
      if (!x.is_zero()) return x;
    }
  };
  ToxicWaste t;
  t.alpha = nonzero();
  t.beta = nonzero();
  t.gamma = nonzero();
  t.delta = nonzero();
  t.tau = nonzero();
  return t;
}

namespace {

// Multiplies the generator by each scalar in chunks so progress can be reported.
template <class Curve>
std::vector<ec::Affine<Curve>> fixed_base_query(const ec::FixedBaseTable<Curve>& table,
                                                std::span<const Fr> scalars, std::string_view name,
                                                const SetupProgress& progress) {
  constexpr std::size_t kReportEvery = std::size_t{1} << 16;
  std::vector<ec::Affine<Curve>> out(scalars.size());
  for (std::size_t start = 0; start < scalars.size(); start += kReportEvery) {
    std::size_t len = std::min(kReportEvery, scalars.size() - start);
    table.mul_many(scalars.subspan(start, len), std::span(out).subspan(start, len));
    if (progress) progress(name, start + len, scalars.size());
  }
  if (progress && scalars.empty()) progress(name, 0, 0);
  return out;
}

}  // namespace

ProvingKey setup(const r1cs::R1csMatrices& m, const ToxicWaste& t, const SetupProgress& progress) {
  poly::EvaluationDomain domain(m.num_constraints());
  QapAtPoint qap = evaluate_qap(m, domain, t.tau);
  const std::size_t ni = m.num_inputs;
  const std::size_t na = m.num_aux;

  ProvingKey pk;
  pk.density = query_density(m);

  std::vector<Fr> a_scalars(qap.u.begin(), qap.u.begin() + static_cast<std::ptrdiff_t>(ni));
  for (std::size_t i = 0; i < na; ++i) {
    if (pk.density.a_aux[i]) a_scalars.push_back(qap.u[ni + i]);
  }
  std::vector<Fr> b_scalars;
  for (std::size_t i = 0; i < ni; ++i) {
    if (pk.density.b_input[i]) b_scalars.push_back(qap.v[i]);
  }
  for (std::size_t i = 0; i < na; ++i) {
    if (pk.density.b_aux[i]) b_scalars.push_back(qap.v[ni + i]);
  }

  const Fr gamma_inv = t.gamma.inverse();
  const Fr delta_inv = t.delta.inverse();
  std::vector<Fr> ic_scalars(ni);
  std::vector<Fr> l_scalars(na);
  for (std::size_t i = 0; i < ni + na; ++i) {
    Fr combined = t.beta * qap.u[i] + t.alpha * qap.v[i] + qap.w[i];
    if (i < ni) {
      ic_scalars[i] = combined * gamma_inv;
    } else {
      l_scalars[i - ni] = combined * delta_inv;
    }
  }
  qap = {};

  std::vector<Fr> h_scalars(domain.size() - 1);
  Fr h_power = domain.vanishing_at(t.tau) * delta_inv;
  for (Fr& s : h_scalars) {
    s = h_power;
    h_power *= t.tau;
  }

  const ec::FixedBaseTable<ec::G1Curve> g1(ec::kG1Generator);
  const ec::FixedBaseTable<ec::G2Curve> g2(ec::kG2Generator);
  auto g1_point = [&](const Fr& s) { return g1.mul(s).to_affine(); };
  auto g2_point = [&](const Fr& s) { return g2.mul(s).to_affine(); };

  VerifyingKey& vk = pk.vk;
  vk.alpha_g1 = g1_point(t.alpha);
  vk.beta_g1 = g1_point(t.beta);
  vk.beta_g2 = g2_point(t.beta);
  vk.gamma_g2 = g2_point(t.gamma);
  vk.delta_g1 = g1_point(t.delta);
  vk.delta_g2 = g2_point(t.delta);
  vk.ic = fixed_base_query(g1, std::span<const Fr>(ic_scalars), "ic", progress);

  pk.a = fixed_base_query(g1, std::span<const Fr>(a_scalars), "a", progress);
  pk.b_g1 = fixed_base_query(g1, std::span<const Fr>(b_scalars), "b_g1", progress);
  pk.b_g2 = fixed_base_query(g2, std::span<const Fr>(b_scalars), "b_g2", progress);
  pk.l = fixed_base_query(g1, std::span<const Fr>(l_scalars), "l", progress);
  pk.h = fixed_base_query(g1, std::span<const Fr>(h_scalars), "h", progress);
  return pk;
}

}  // namespace zkpipe::groth16
