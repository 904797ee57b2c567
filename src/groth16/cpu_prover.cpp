#include "groth16/cpu_prover.hpp"

#include <span>

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include "ec/msm/msm.hpp"
#include "groth16/assembly.hpp"
#include "groth16/query_scalars.hpp"
#include "poly/evaluation_domain.hpp"
#include "poly/ntt.hpp"

namespace zkpipe::groth16 {

using ff::Fr;

void compute_h_in_place(std::vector<Fr>& a, std::vector<Fr>& b, std::vector<Fr>& c, std::size_t domain_size,
                        HQuery query) {
  const poly::EvaluationDomain domain = h_query_domain(query, domain_size);
  a.resize(domain_size);
  b.resize(domain_size);
  c.resize(domain_size);
  // Evaluations on H → coefficients (bit-reversed) → evaluations on the coset gH,
  // where Z is the non-zero constant g^N − 1.
  auto to_coset = [&](std::vector<Fr>& v) {
    poly::inverse_ntt(domain, v, poly::NttOrder::natural_to_bit_reversed);
    poly::coset_forward_ntt(domain, v, poly::NttOrder::bit_reversed_to_natural);
  };
  to_coset(a);
  to_coset(b);
  to_coset(c);
  if (query == HQuery::kSnarkjsOddCoset) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, domain_size, 1 << 14), [&](const auto& range) {
      for (std::size_t i = range.begin(); i < range.end(); ++i) a[i] = a[i] * b[i] - c[i];
    });
    return;
  }
  const Fr z_inv = domain.vanishing_on_coset_inv();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, domain_size, 1 << 14), [&](const auto& range) {
    for (std::size_t i = range.begin(); i < range.end(); ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv;
  });
  poly::coset_inverse_ntt(domain, a, poly::NttOrder::natural_to_natural);
}

namespace {

// start()'s work on a materialized witness: the checks, then h and the four G1 MSMs.
// a, b, c are clobbered (h is computed in place in a); the assignment is only read.
G1MsmSums g1_msm_sums(PartitionWitness& w, const ProvingKey& key, std::vector<StageTime>& timings) {
  check_witness_matches_key(w, key);
  check_satisfied(w);
  Stopwatch clock;

  compute_h_in_place(w.a, w.b, w.c, key.domain_size(), key.h_query);
  timings.push_back({"ntt_h", clock.lap()});

  std::span<const Fr> h(w.a.data(), key.h.size());
  G1MsmSums sums;
  sums.h = ec::msm<ec::G1Curve>(key.h, h);
  timings.push_back({"msm_h", clock.lap()});

  const Assignment& z = w.assignment;
  sums.l = ec::msm<ec::G1Curve>(key.l, z.aux);
  timings.push_back({"msm_l", clock.lap()});

  // One gathered scalar set at a time: the footprint's scratch assumes it.
  sums.a = ec::msm<ec::G1Curve>(key.a, a_query_scalars(z));
  timings.push_back({"msm_a", clock.lap()});

  sums.b_g1 = ec::msm<ec::G1Curve>(key.b_g1, b_query_scalars(z));
  timings.push_back({"msm_b_g1", clock.lap()});
  return sums;
}

}  // namespace

std::unique_ptr<PendingProof> CpuProver::start(PartitionWitness w, const ProvingKey& key, const Blinding& blinding) {
  Stopwatch clock;
  const bool deferred = w.is_deferred();
  materialize(w);
  auto pending = std::make_unique<PendingG1Proof>(key, blinding);
  if (deferred) pending->timings.push_back({"abc", clock.lap()});
  pending->blind(g1_msm_sums(w, key, pending->timings));
  pending->assignment = std::make_shared<const Assignment>(std::move(w.assignment));
  return pending;
}

Proof CpuProver::finish(std::unique_ptr<PendingProof> pending) {
  return finish_on_cpu(dynamic_cast<const PendingG1Proof&>(*pending));
}

void CpuProver::abort(std::unique_ptr<PendingProof> pending) { pending.reset(); }

}  // namespace zkpipe::groth16
