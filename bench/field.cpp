// Field-arithmetic micro-benchmarks. Every loop is a dependent chain (the next
// operation consumes the previous result) so that the figures are latencies and the
// compiler cannot hoist or vectorize the work away.
#include <benchmark/benchmark.h>

#include <random>

#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"

namespace {

using zkpipe::ff::Fp;
using zkpipe::ff::Fp2;
using zkpipe::ff::Fr;

template <class Field>
Field sample(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return Field::random(rng);
}

void BM_FpMul(benchmark::State& state) {
  Fp x = sample<Fp>(1);
  const Fp y = sample<Fp>(2);
  for (auto _ : state) {
    x = x * y;
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_FpMul);

void BM_FpSquare(benchmark::State& state) {
  Fp x = sample<Fp>(3);
  for (auto _ : state) {
    x = x.square();
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_FpSquare);

void BM_FpAdd(benchmark::State& state) {
  Fp x = sample<Fp>(4);
  const Fp y = sample<Fp>(5);
  for (auto _ : state) {
    x = x + y;
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_FpAdd);

void BM_FrMul(benchmark::State& state) {
  Fr x = sample<Fr>(6);
  const Fr y = sample<Fr>(7);
  for (auto _ : state) {
    x = x * y;
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_FrMul);

// Inversions chain through x = 1/x + y so that consecutive inputs differ and never
// settle into a cycle of length two.
template <class Field, Field (Field::*Invert)() const>
void invert_chain(benchmark::State& state, std::uint64_t seed) {
  Field x = sample<Field>(seed);
  const Field y = sample<Field>(seed + 1);
  for (auto _ : state) {
    x = (x.*Invert)() + y;
    benchmark::DoNotOptimize(x);
  }
}

void BM_FpInverse(benchmark::State& state) { invert_chain<Fp, &Fp::inverse>(state, 8); }
BENCHMARK(BM_FpInverse);

void BM_FpInverseCt(benchmark::State& state) { invert_chain<Fp, &Fp::inverse_ct>(state, 10); }
BENCHMARK(BM_FpInverseCt);

void BM_FrInverse(benchmark::State& state) { invert_chain<Fr, &Fr::inverse>(state, 12); }
BENCHMARK(BM_FrInverse);

void BM_Fp2Mul(benchmark::State& state) {
  Fp2 x = sample<Fp2>(14);
  const Fp2 y = sample<Fp2>(15);
  for (auto _ : state) {
    x = x * y;
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_Fp2Mul);

void BM_Fp2Square(benchmark::State& state) {
  Fp2 x = sample<Fp2>(16);
  for (auto _ : state) {
    x = x.square();
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_Fp2Square);

// Square roots of squares (the common case when decompressing points), chained
// through the root itself.
void BM_FpSqrt(benchmark::State& state) {
  Fp x = sample<Fp>(17);
  for (auto _ : state) {
    x = *x.square().sqrt() + Fp::one();
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(BM_FpSqrt);

}  // namespace
BENCHMARK_MAIN();
