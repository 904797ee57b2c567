// The backend-independent ends of a proof: blinding the G1 MSM sums after start(),
// and the CPU finish (the G2 MSM for B, then C = L + H + s·A + r·B₁ − r·s·δ).
// Backends differ in how they compute the MSM sums, not in these formulas.
#pragma once

#include <chrono>

#include "ec/jacobian.hpp"
#include "groth16/prover.hpp"

namespace zkpipe::groth16 {

using G1Point = ec::Jacobian<ec::G1Curve>;

// Σ z_i·Q_i for each G1 query, as start() computes them.
struct G1MsmSums {
  G1Point a;
  G1Point b_g1;
  G1Point h;
  G1Point l;
};

// What start() leaves for a finish() that runs on the CPU (the B query's scalars
// come from the assignment it co-owns). The key is the caller's, alive until finish().
class PendingG1Proof : public PendingProof {
 public:
  PendingG1Proof(const ProvingKey& key, const Blinding& blinding) : key(&key), blinding(blinding) {}

  // A = α + Σ + r·δ, B₁ = β + Σ + s·δ, and L + H.
  void blind(const G1MsmSums& sums);

  const ProvingKey* key;
  Blinding blinding;
  G1Point a;
  G1Point b_g1;
  G1Point c_part;
};

// Σ z_i·Q_i over the B query in G2 (the CPU finish's MSM).
ec::Jacobian<ec::G2Curve> b_g2_msm(const Assignment& assignment, const ProvingKey& key);

// The proof from start()'s blinded G1 sums and the B query's G2 sum.
Proof assemble(const PendingG1Proof& pending, const ec::Jacobian<ec::G2Curve>& b_g2_sum);

// The G2 MSM on the CPU and the proof's assembly.
Proof finish_on_cpu(const PendingG1Proof& pending);

// Seconds since the last lap (or construction), for per-step timings.
class Stopwatch {
 public:
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return s;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace zkpipe::groth16
