// The pairing layer: one pairing and its two halves, the three-pair product a
// Groth16 verification computes, and the Fp12 operations they are built from.
#include <benchmark/benchmark.h>

#include <array>
#include <random>
#include <utility>

#include "ec/generators.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/fp12.hpp"
#include "ff/fr.hpp"
#include "pairing/pairing.hpp"

namespace {

using zkpipe::ff::Fp12;
using zkpipe::ff::Fr;
using namespace zkpipe::pairing;

std::mt19937_64& rng() {
  static std::mt19937_64 r{0xbe4c};
  return r;
}

template <class Curve>
zkpipe::ec::Affine<Curve> random_point(const zkpipe::ec::Affine<Curve>& generator) {
  auto k = Fr::random(rng()).to_canonical();
  return zkpipe::ec::mul_double_and_add(zkpipe::ec::Jacobian<Curve>::from_affine(generator), k).to_affine();
}

G1Affine random_g1() { return random_point(zkpipe::ec::kG1Generator); }
G2Affine random_g2() { return random_point(zkpipe::ec::kG2Generator); }

void BM_Pairing(benchmark::State& state) {
  G1Affine p = random_g1();
  G2Affine q = random_g2();
  for (auto _ : state) benchmark::DoNotOptimize(pairing(p, q));
}
BENCHMARK(BM_Pairing)->Unit(benchmark::kMicrosecond);

// Includes computing the line coefficients of Q.
void BM_MillerLoop(benchmark::State& state) {
  G1Affine p = random_g1();
  G2Affine q = random_g2();
  for (auto _ : state) {
    G2Prepared prepared(q);
    std::array<PreparedPair, 1> terms{PreparedPair{p, &prepared}};
    benchmark::DoNotOptimize(miller_loop(terms));
  }
}
BENCHMARK(BM_MillerLoop)->Unit(benchmark::kMicrosecond);

void BM_MillerLoopPrepared(benchmark::State& state) {
  G1Affine p = random_g1();
  G2Prepared prepared(random_g2());
  std::array<PreparedPair, 1> terms{PreparedPair{p, &prepared}};
  for (auto _ : state) benchmark::DoNotOptimize(miller_loop(terms));
}
BENCHMARK(BM_MillerLoopPrepared)->Unit(benchmark::kMicrosecond);

void BM_G2Prepare(benchmark::State& state) {
  G2Affine q = random_g2();
  for (auto _ : state) benchmark::DoNotOptimize(G2Prepared(q));
}
BENCHMARK(BM_G2Prepare)->Unit(benchmark::kMicrosecond);

void BM_FinalExponentiation(benchmark::State& state) {
  Fp12 f = Fp12::random(rng());
  for (auto _ : state) benchmark::DoNotOptimize(final_exponentiation(f));
}
BENCHMARK(BM_FinalExponentiation)->Unit(benchmark::kMicrosecond);

// Groth16 verification: e(A, B)·e(-L, γ)·e(-C, δ) with three fresh G2 points.
void BM_MultiPairing3(benchmark::State& state) {
  std::array<std::pair<G1Affine, G2Affine>, 3> pairs;
  for (auto& pair : pairs) pair = {random_g1(), random_g2()};
  for (auto _ : state) benchmark::DoNotOptimize(multi_pairing(pairs));
}
BENCHMARK(BM_MultiPairing3)->Unit(benchmark::kMicrosecond);

// The same with γ and δ prepared once, as a verifier with a fixed key does; B is
// the proof's point and is prepared per call.
void BM_MultiPairing3Prepared(benchmark::State& state) {
  std::array<G1Affine, 3> ps{random_g1(), random_g1(), random_g1()};
  G2Affine b = random_g2();
  G2Prepared gamma(random_g2());
  G2Prepared delta(random_g2());
  for (auto _ : state) {
    G2Prepared b_prepared(b);
    std::array<PreparedPair, 3> terms{PreparedPair{ps[0], &b_prepared}, PreparedPair{ps[1], &gamma},
                                      PreparedPair{ps[2], &delta}};
    benchmark::DoNotOptimize(multi_pairing(terms));
  }
}
BENCHMARK(BM_MultiPairing3Prepared)->Unit(benchmark::kMicrosecond);

void BM_Fp12Mul(benchmark::State& state) {
  Fp12 a = Fp12::random(rng());
  Fp12 b = Fp12::random(rng());
  for (auto _ : state) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12Mul);

void BM_Fp12Square(benchmark::State& state) {
  Fp12 a = Fp12::random(rng());
  for (auto _ : state) {
    a = a.square();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12Square);

void BM_Fp12CyclotomicSquare(benchmark::State& state) {
  Fp12 a = final_exponentiation(Fp12::random(rng()));
  for (auto _ : state) {
    a = a.cyclotomic_square();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12CyclotomicSquare);

}  // namespace
BENCHMARK_MAIN();
