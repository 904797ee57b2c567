#include "groth16/setup.hpp"

#include <algorithm>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

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

constexpr std::size_t kSetupChunk = std::size_t{1} << 16;

// The host's tables (ec/fixed_base.hpp): 16-bit windows halve the additions of 8-bit
// ones but take 2^20 points per group (about 300 MB together, against 2^13); from
// about 4 M points on, the additions saved are worth them (a 2 KiB PoRep's 11 M: 100 s
// of multiplications instead of 134 s on 2 cores; the table's random reads keep it
// from half).
constexpr std::size_t kWideWindowPoints = std::size_t{1} << 22;

bool wide_windows(const SetupScalars& s) {
  return s.a.size() + 2 * s.b.size() + s.l.size() + s.h.size() >= kWideWindowPoints;
}

// Calls chunk(start, length) over `count` points in order, reporting progress after
// each chunk (and once for an empty query).
template <class Chunk>
void in_chunks(std::size_t count, std::size_t chunk_points, std::string_view name, const SetupProgress& progress,
               const Chunk& chunk) {
  for (std::size_t start = 0; start < count; start += chunk_points) {
    const std::size_t len = std::min(chunk_points, count - start);
    chunk(start, len);
    if (progress) progress(name, start + len, count);
  }
  if (progress && count == 0) progress(name, 0, 0);
}

template <class Table>
std::vector<typename Table::AffinePoint> fixed_base_query(const Table& table, std::span<const Fr> scalars,
                                                          std::string_view name, const SetupProgress& progress) {
  std::vector<typename Table::AffinePoint> out(scalars.size());
  in_chunks(scalars.size(), kSetupChunk, name, progress, [&](std::size_t start, std::size_t len) {
    table.mul_many(scalars.subspan(start, len), std::span(out).subspan(start, len));
  });
  return out;
}

// A query computed a chunk at a time as the writer asks for it.
template <class Table>
QueryProducer<typename Table::AffinePoint> fixed_base_producer(std::shared_ptr<const Table> table,
                                                               std::span<const Fr> scalars, std::string name,
                                                               SetupProgress progress, std::size_t chunk_points) {
  using Point = typename Table::AffinePoint;
  return {scalars.size(), [=](const std::function<void(std::span<const Point>)>& put) {
            std::vector<Point> buffer(std::min(chunk_points, scalars.size()));
            in_chunks(scalars.size(), chunk_points, name, progress, [&](std::size_t start, std::size_t len) {
              const std::span<Point> points = std::span(buffer).first(len);
              table->mul_many(scalars.subspan(start, len), points);
              put(std::span<const Point>(points));
            });
          }};
}

}  // namespace

namespace {

SetupScalars scalars_from_qap(QapAtPoint qap, QueryDensity density, const poly::EvaluationDomain& domain,
                              std::size_t ni, std::size_t na, const ToxicWaste& t) {
  SetupScalars s;
  s.density = std::move(density);
  s.domain_size = domain.size();
  s.a.assign(qap.u.begin(), qap.u.begin() + static_cast<std::ptrdiff_t>(ni));
  for (std::size_t i = 0; i < na; ++i) {
    if (s.density.a_aux[i]) s.a.push_back(qap.u[ni + i]);
  }
  for (std::size_t i = 0; i < ni; ++i) {
    if (s.density.b_input[i]) s.b.push_back(qap.v[i]);
  }
  for (std::size_t i = 0; i < na; ++i) {
    if (s.density.b_aux[i]) s.b.push_back(qap.v[ni + i]);
  }

  const Fr gamma_inv = t.gamma.inverse();
  const Fr delta_inv = t.delta.inverse();
  s.ic.resize(ni);
  s.l.resize(na);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, ni + na, 1 << 14), [&](const auto& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) {
      const Fr combined = t.beta * qap.u[i] + t.alpha * qap.v[i] + qap.w[i];
      if (i < ni) {
        s.ic[i] = combined * gamma_inv;
      } else {
        s.l[i - ni] = combined * delta_inv;
      }
    }
  });
  qap = {};

  // τ^j·Z(τ)/δ for j < N − 1, each chunk from its own power of τ.
  s.h.resize(domain.size() - 1);
  const Fr h_first = domain.vanishing_at(t.tau) * delta_inv;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, s.h.size(), 1 << 14), [&](const auto& r) {
    Fr power = h_first * t.tau.pow(r.begin());
    for (std::size_t j = r.begin(); j < r.end(); ++j) {
      s.h[j] = power;
      power *= t.tau;
    }
  });
  return s;
}

}  // namespace

SetupScalars setup_scalars(const r1cs::R1csMatrices& m, const ToxicWaste& t) {
  poly::EvaluationDomain domain(m.num_constraints());
  return scalars_from_qap(evaluate_qap(m, domain, t.tau), query_density(m), domain, m.num_inputs, m.num_aux, t);
}

SetupScalars setup_scalars(const r1cs::CompiledR1cs& m, const ToxicWaste& t) {
  poly::EvaluationDomain domain(m.num_constraints);
  return scalars_from_qap(evaluate_qap(m, domain, t.tau), query_density(m), domain, m.num_inputs, m.num_aux, t);
}

template <unsigned WindowBits>
VerifyingKey verifying_key(const ToxicWaste& t, std::span<const Fr> ic_scalars,
                           const ec::FixedBaseTable<ec::G1Curve, WindowBits>& g1,
                           const ec::FixedBaseTable<ec::G2Curve, WindowBits>& g2) {
  auto g1_point = [&](const Fr& s) { return g1.mul(s).to_affine(); };
  auto g2_point = [&](const Fr& s) { return g2.mul(s).to_affine(); };
  VerifyingKey vk;
  vk.alpha_g1 = g1_point(t.alpha);
  vk.beta_g1 = g1_point(t.beta);
  vk.beta_g2 = g2_point(t.beta);
  vk.gamma_g2 = g2_point(t.gamma);
  vk.delta_g1 = g1_point(t.delta);
  vk.delta_g2 = g2_point(t.delta);
  vk.ic = fixed_base_query(g1, ic_scalars, "ic", {});
  return vk;
}

template VerifyingKey verifying_key<8>(const ToxicWaste&, std::span<const Fr>, const ec::FixedBaseTable<ec::G1Curve, 8>&,
                                       const ec::FixedBaseTable<ec::G2Curve, 8>&);

namespace {

template <unsigned WindowBits>
ProvingKey setup_with(const SetupScalars& s, const ToxicWaste& t, const SetupProgress& progress) {
  const ec::FixedBaseTable<ec::G1Curve, WindowBits> g1(ec::kG1Generator);
  const ec::FixedBaseTable<ec::G2Curve, WindowBits> g2(ec::kG2Generator);
  ProvingKey pk;
  pk.vk = verifying_key(t, s.ic, g1, g2);
  pk.density = s.density;
  pk.a = fixed_base_query(g1, std::span<const Fr>(s.a), "a", progress);
  pk.b_g1 = fixed_base_query(g1, std::span<const Fr>(s.b), "b_g1", progress);
  pk.b_g2 = fixed_base_query(g2, std::span<const Fr>(s.b), "b_g2", progress);
  pk.l = fixed_base_query(g1, std::span<const Fr>(s.l), "l", progress);
  pk.h = fixed_base_query(g1, std::span<const Fr>(s.h), "h", progress);
  return pk;
}

template <unsigned WindowBits>
StreamedKey streamed_setup_with(const SetupScalars& s, const ToxicWaste& t, const SetupProgress& progress,
                                std::size_t chunk_points) {
  const auto g1 = std::make_shared<const ec::FixedBaseTable<ec::G1Curve, WindowBits>>(ec::kG1Generator);
  const auto g2 = std::make_shared<const ec::FixedBaseTable<ec::G2Curve, WindowBits>>(ec::kG2Generator);
  StreamedKey key;
  key.subgroup_checked = true;  // multiples of the generators
  key.vk = verifying_key(t, s.ic, *g1, *g2);
  key.density = s.density;
  key.h_query = HQuery::kMonomial;
  key.a = fixed_base_producer(g1, std::span<const Fr>(s.a), "a", progress, chunk_points);
  key.b_g1 = fixed_base_producer(g1, std::span<const Fr>(s.b), "b_g1", progress, chunk_points);
  key.b_g2 = fixed_base_producer(g2, std::span<const Fr>(s.b), "b_g2", progress, chunk_points);
  key.h = fixed_base_producer(g1, std::span<const Fr>(s.h), "h", progress, chunk_points);
  key.l = fixed_base_producer(g1, std::span<const Fr>(s.l), "l", progress, chunk_points);
  return key;
}

}  // namespace

ProvingKey setup(const SetupScalars& s, const ToxicWaste& t, const SetupProgress& progress) {
  return wide_windows(s) ? setup_with<16>(s, t, progress) : setup_with<8>(s, t, progress);
}

StreamedKey streamed_setup(const SetupScalars& s, const ToxicWaste& t, const SetupProgress& progress,
                           std::size_t chunk_points) {
  if (chunk_points == 0) throw std::invalid_argument("streamed_setup: chunks of 0 points");
  return wide_windows(s) ? streamed_setup_with<16>(s, t, progress, chunk_points)
                         : streamed_setup_with<8>(s, t, progress, chunk_points);
}

ProvingKey setup(const r1cs::R1csMatrices& m, const ToxicWaste& t, const SetupProgress& progress) {
  return setup(setup_scalars(m, t), t, progress);
}

}  // namespace zkpipe::groth16
