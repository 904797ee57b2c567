// Curve micro-benchmarks: point additions, scalar multiplications and point
// decompression (with the subgroup check). Additions are dependent chains, so the
// figures are latencies.
#include <benchmark/benchmark.h>

#include <random>

#include "ec/generators.hpp"
#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/serialization.hpp"
#include "ec/subgroup.hpp"
#include "ec/xyzz.hpp"
#include "ff/fr.hpp"

namespace {

using namespace zkpipe::ec;
using zkpipe::ff::Fr;

template <class Curve>
const Affine<Curve>& generator() {
  if constexpr (std::is_same_v<Curve, G1Curve>) {
    return kG1Generator;
  } else {
    return kG2Generator;
  }
}

// A pseudo-random subgroup point: [k]G for a fixed random k.
template <class Curve>
Jacobian<Curve> sample_point(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return mul_vartime(generator<Curve>(), Fr::random(rng));
}

template <class Curve>
void BM_MixedAddJacobian(benchmark::State& state) {
  Jacobian<Curve> acc = sample_point<Curve>(1);
  const Affine<Curve> q = sample_point<Curve>(2).to_affine();
  for (auto _ : state) {
    acc += q;
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_MixedAddJacobian<G1Curve>)->Name("G1/mixed_add_jacobian");
BENCHMARK(BM_MixedAddJacobian<G2Curve>)->Name("G2/mixed_add_jacobian");

template <class Curve>
void BM_MixedAddXyzz(benchmark::State& state) {
  Xyzz<Curve> acc = Xyzz<Curve>::from_affine(sample_point<Curve>(1).to_affine());
  const Affine<Curve> q = sample_point<Curve>(2).to_affine();
  for (auto _ : state) {
    acc += q;
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_MixedAddXyzz<G1Curve>)->Name("G1/mixed_add_xyzz");
BENCHMARK(BM_MixedAddXyzz<G2Curve>)->Name("G2/mixed_add_xyzz");

template <class Curve>
void BM_Double(benchmark::State& state) {
  Jacobian<Curve> acc = sample_point<Curve>(1);
  for (auto _ : state) {
    acc = acc.dbl();
    benchmark::DoNotOptimize(acc);
  }
}
BENCHMARK(BM_Double<G1Curve>)->Name("G1/double_jacobian");
BENCHMARK(BM_Double<G2Curve>)->Name("G2/double_jacobian");

template <class Curve>
void BM_MulVartime(benchmark::State& state) {
  std::mt19937_64 rng(3);
  const Jacobian<Curve> p = sample_point<Curve>(4);
  Fr k = Fr::random(rng);
  for (auto _ : state) {
    benchmark::DoNotOptimize(mul_vartime(p, k));
    k += Fr::one();
  }
}
BENCHMARK(BM_MulVartime<G1Curve>)->Name("G1/scalar_mul_vartime")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MulVartime<G2Curve>)->Name("G2/scalar_mul_vartime")->Unit(benchmark::kMicrosecond);

template <class Curve>
void BM_MulCt(benchmark::State& state) {
  std::mt19937_64 rng(5);
  const Jacobian<Curve> p = sample_point<Curve>(6);
  Fr k = Fr::random(rng);
  for (auto _ : state) {
    benchmark::DoNotOptimize(mul_ct(p, k));
    k += Fr::one();
  }
}
BENCHMARK(BM_MulCt<G1Curve>)->Name("G1/scalar_mul_ct")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MulCt<G2Curve>)->Name("G2/scalar_mul_ct")->Unit(benchmark::kMicrosecond);

template <class Curve>
void BM_Decompress(benchmark::State& state) {
  const auto bytes = encode_compressed(sample_point<Curve>(7).to_affine());
  for (auto _ : state) benchmark::DoNotOptimize(decode<Curve>(bytes));
}
BENCHMARK(BM_Decompress<G1Curve>)->Name("G1/decompress_checked")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Decompress<G2Curve>)->Name("G2/decompress_checked")->Unit(benchmark::kMicrosecond);

template <class Curve>
void BM_SubgroupCheck(benchmark::State& state) {
  const Affine<Curve> p = sample_point<Curve>(8).to_affine();
  for (auto _ : state) benchmark::DoNotOptimize(is_in_subgroup(p));
}
BENCHMARK(BM_SubgroupCheck<G1Curve>)->Name("G1/subgroup_check")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SubgroupCheck<G2Curve>)->Name("G2/subgroup_check")->Unit(benchmark::kMicrosecond);

}  // namespace
BENCHMARK_MAIN();
