// The load-time check of a parameter file's points (groth16/stored_points.hpp): flag,
// canonical coordinates and the curve equation for every point, on all cores. The
// per-point cost sets what `check_points` adds to loading a key (docs/BENCHMARKS.md).
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "ec/batch_normalize.hpp"
#include "ec/generators.hpp"
#include "ec/jacobian.hpp"
#include "groth16/stored_points.hpp"

namespace {

using namespace zkpipe;

template <class Point>
const Point& generator() {
  if constexpr (std::is_same_v<Point, groth16::G1Affine>) {
    return ec::kG1Generator;
  } else {
    return ec::kG2Generator;
  }
}

// G, 2G, 3G, …: distinct points on the curve, stored as a parameter file stores them.
template <class Point>
std::vector<std::uint8_t> stored_points(std::size_t n) {
  using Curve = std::conditional_t<std::is_same_v<Point, groth16::G1Affine>, ec::G1Curve, ec::G2Curve>;
  std::vector<ec::Jacobian<Curve>> multiples(n);
  ec::Jacobian<Curve> acc = ec::Jacobian<Curve>::from_affine(generator<Point>());
  for (auto& m : multiples) {
    m = acc;
    acc += generator<Point>();
  }
  const std::vector<Point> affine = ec::batch_normalize(multiples);
  std::vector<std::uint8_t> bytes(n * sizeof(Point));
  std::memcpy(bytes.data(), static_cast<const void*>(affine.data()), bytes.size());
  return bytes;
}

template <class Point>
void BM_CheckStoredPoints(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<std::uint8_t> bytes = stored_points<Point>(n);
  for (auto _ : state) {
    auto bad = groth16::first_malformed_point<Point>(bytes);
    if (bad) state.SkipWithError("a valid point was refused");
    benchmark::DoNotOptimize(bad);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_CheckStoredPoints<groth16::G1Affine>)->Name("check_points/G1")->Arg(1 << 16)->Arg(1 << 20)->UseRealTime();
BENCHMARK(BM_CheckStoredPoints<groth16::G2Affine>)->Name("check_points/G2")->Arg(1 << 16)->Arg(1 << 20)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
