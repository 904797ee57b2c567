// GPU benchmarks: G1 and G2 MSM, NTTs and the CUDA prover's start(), timed with CUDA
// events after a warm-up, median of several runs. Prints one table; usage:
//   bench_gpu [arith|msm|msm_g2|msm_streamed|msm_chunks|ntt|tiles|start|prove|all] [max_log]
//   bench_gpu hold FREE_GIB SECONDS   holds all but FREE_GIB of the device's free
//                                     memory for SECONDS: another process's share of
//                                     a card, to run zkpipe beside (a smaller card)
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "ec/msm/msm.hpp"
#include "ec/msm/testing.hpp"
#include "groth16/keys.hpp"
#include "groth16/prover.hpp"
#include "bench_arith.hpp"
#include "gpu/cuda_error.hpp"
#include "gpu/cuda_prover.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm.hpp"
#include "gpu/msm_streamed.hpp"
#include "gpu/pinned_points.hpp"
#include "gpu/ntt.hpp"
#include "gpu/staging.hpp"

namespace {

using namespace zkpipe;
using ff::Fr;
using Affine = ec::Affine<ec::G1Curve>;

constexpr int kRuns = 5;

class EventTimer {
 public:
  EventTimer() {
    gpu::check(cudaEventCreate(&start_), "event");
    gpu::check(cudaEventCreate(&stop_), "event");
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  // Median milliseconds of kRuns runs of f(stream) after one warm-up run.
  template <class F>
  double median_ms(cudaStream_t stream, F&& f) {
    f(stream);
    gpu::check(cudaStreamSynchronize(stream), "warm-up");
    std::vector<double> ms;
    for (int i = 0; i < kRuns; ++i) {
      gpu::check(cudaEventRecord(start_, stream), "record");
      f(stream);
      gpu::check(cudaEventRecord(stop_, stream), "record");
      gpu::check(cudaEventSynchronize(stop_), "sync");
      float t = 0;
      gpu::check(cudaEventElapsedTime(&t, start_, stop_), "elapsed");
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }

 private:
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

// n points: 2^20 distinct random points repeated (MSM cost does not depend on
// the points being distinct).
std::vector<Affine> bench_points(std::size_t n) {
  static const std::vector<Affine> distinct = ec::msm_testing::random_points<ec::G1Curve>(1 << 20, 1);
  std::vector<Affine> points(n);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) { points[i] = distinct[i % distinct.size()]; });
  return points;
}

// The same for G2.
std::vector<ec::Affine<ec::G2Curve>> bench_points_g2(std::size_t n) {
  static const std::vector<ec::Affine<ec::G2Curve>> distinct =
      ec::msm_testing::random_points<ec::G2Curve>(1 << 20, 2);
  std::vector<ec::Affine<ec::G2Curve>> points(n);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) { points[i] = distinct[i % distinct.size()]; });
  return points;
}

std::vector<Fr> random_fr(std::size_t n, std::uint64_t seed) {
  std::vector<Fr> v(n);
  const std::size_t blocks = (n + 65535) / 65536;
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    std::mt19937_64 rng(seed * 1000003 + b);
    for (std::size_t i = b * 65536; i < std::min(n, (b + 1) * 65536); ++i) v[i] = Fr::random(rng);
  });
  return v;
}

// A copy of host scalars on the device, the copy complete.
gpu::DeviceBuffer<Fr> on_device(std::span<const Fr> scalars, gpu::PinnedStaging& staging) {
  gpu::DeviceBuffer<Fr> d(scalars.size());
  staging.upload(d.data(), scalars, nullptr);
  gpu::check(cudaDeviceSynchronize(), "upload");
  return d;
}

void bench_msm(unsigned max_log) {
  std::printf("\n== G1 MSM (bases and scalars on the device; random scalars) ==\n");
  std::printf("%-6s %-7s %10s | per phase, ms: %6s %6s %6s %10s %6s %6s\n", "log n", "window", "median ms", "digits",
              "sort", "order", "accumulate", "reduce", "ones");
  gpu::PinnedStaging staging;
  gpu::DeviceMsm msm;
  EventTimer timer;
  for (unsigned lg = 16; lg <= max_log; lg += 2) {
    const std::size_t n = std::size_t{1} << lg;
    gpu::DeviceG1Bases bases(bench_points(n), staging, nullptr);
    const std::vector<Fr> scalars = random_fr(n, lg);
    const gpu::DeviceBuffer<Fr> d_scalars = on_device(scalars, staging);
    if (lg <= 20) {
      const auto host = ec::msm<ec::G1Curve>(bench_points(n), scalars);
      const bool same = msm.sum(bases, d_scalars.data(), n, nullptr) == host;
      std::printf("%-6u check against ec::msm: %s\n", lg, same ? "equal" : "DIFFERENT");
    }
    const unsigned def = gpu::DeviceMsm::default_window_bits<ec::G1Curve>(n);
    for (unsigned c = def - 1; c <= def + 2; ++c) {
      msm.set_phase_timing(false);
      const double ms = timer.median_ms(nullptr, [&](cudaStream_t s) { msm.sum(bases, d_scalars.data(), n, s, c); });
      msm.set_phase_timing(true);
      msm.sum(bases, d_scalars.data(), n, nullptr, c);
      const gpu::MsmPhaseTimes& t = msm.last_phases();
      std::printf("%-6u %-7u %10.2f | %21.2f %6.2f %6.2f %10.2f %6.2f %6.2f%s\n", lg, c, ms, t.digits, t.sort, t.order,
                  t.accumulate, t.reduce, t.ones, c == def ? "  (default)" : "");
      std::fflush(stdout);
    }
    msm.set_phase_timing(false);
  }
}

// The pinned host-to-device copy rate, what a streamed MSM's transfers are bound by.
void bench_link() {
  constexpr std::size_t kBytes = std::size_t{1} << 30;
  gpu::PinnedBuffer<std::byte> host(kBytes);
  gpu::DeviceBuffer<std::byte> device(kBytes);
  std::memset(host.data(), 1, kBytes);
  EventTimer timer;
  const double ms = timer.median_ms(nullptr, [&](cudaStream_t s) {
    gpu::check(cudaMemcpyAsync(device.data(), host.data(), kBytes, cudaMemcpyHostToDevice, s), "copy");
  });
  std::printf("\n== pinned host-to-device copy: 1 GiB in %.2f ms, %.1f GB/s ==\n", ms, kBytes / ms / 1e6);
}

// G1 MSM with the bases in host memory, streamed in chunks (StreamedMsm), against
// the resident sum; wall time, since the host converts the chunks. Staged from the
// host points, random scalars send every base and a witness's (half zeros) only the
// non-zero terms'; from a page-locked copy every base goes, by the copy engine alone.
void bench_msm_streamed(unsigned max_log) {
  bench_link();
  std::printf("\n== G1 MSM, bases streamed from host memory (wall ms, median of %d) ==\n", kRuns);
  gpu::PinnedStaging staging;
  gpu::DeviceMsm msm;
  EventTimer timer;
  for (unsigned lg : {22u, 24u, 26u}) {
    if (lg > max_log) break;
    const std::size_t n = std::size_t{1} << lg;
    const std::vector<Affine> points = bench_points(n);
    const auto pin_start = std::chrono::steady_clock::now();
    const gpu::PinnedG1Points pinned(points, false, memory::BufferLedger::process());
    std::printf("2^%u page-locked copy made in %.1f ms\n", lg,
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pin_start).count());
    for (const bool witness : {false, true}) {
      const std::vector<Fr> scalars = witness ? ec::msm_testing::witness_like_scalars(n, 50, 45, lg) : random_fr(n, lg);
      std::printf("%s scalars:\n", witness ? "witness-like (50 % zeros, 45 % ones)" : "random");
      const gpu::DeviceBuffer<Fr> d_scalars = on_device(scalars, staging);
      ec::Jacobian<ec::G1Curve> resident_sum;
      {
        gpu::DeviceG1Bases bases(points, staging, nullptr);
        const double ms = timer.median_ms(nullptr, [&](cudaStream_t s) { msm.sum(bases, d_scalars.data(), n, s); });
        resident_sum = msm.sum(bases, d_scalars.data(), n, nullptr);
        std::printf("2^%u resident: %.2f ms\n", lg, ms);
      }
      for (const bool from_pinned : {false, true}) {
        for (const std::size_t chunk : {n / 4, n / 16}) {
          gpu::StreamedG1Msm streamed(chunk);
          std::vector<double> ms;
          bool same = true;
          for (int run = 0; run <= kRuns; ++run) {
            const auto t0 = std::chrono::steady_clock::now();
            const auto sum = from_pinned ? streamed.sum(msm, pinned, d_scalars.data(), n, nullptr)
                                         : streamed.sum(msm, points, d_scalars.data(), n, nullptr);
            const auto t1 = std::chrono::steady_clock::now();
            if (run > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            same = same && sum == resident_sum;
          }
          std::sort(ms.begin(), ms.end());
          std::printf("2^%u streamed %s, chunks of 2^%d points: %.2f ms, %.0f MiB sent (%s the resident sum)\n", lg,
                      from_pinned ? "from a page-locked copy" : "staged from the host points",
                      static_cast<int>(std::bit_width(chunk)) - 1, ms[ms.size() / 2],
                      static_cast<double>(streamed.last_sent_bytes()) / (1 << 20),
                      same ? "equal to" : "DIFFERENT from");
          std::fflush(stdout);
        }
      }
    }
  }
}

void bench_msm_g2(unsigned max_log) {
  std::printf("\n== G2 MSM (bases and scalars on the device; random scalars) ==\n");
  std::printf("%-6s %-8s %12s\n", "log n", "window", "median ms");
  gpu::PinnedStaging staging;
  gpu::DeviceMsm msm;
  EventTimer timer;
  for (unsigned lg = 20; lg <= max_log; lg += 2) {
    const std::size_t n = std::size_t{1} << lg;
    gpu::DeviceG2Bases bases(bench_points_g2(n), staging, nullptr);
    const std::vector<Fr> scalars = random_fr(n, lg);
    const gpu::DeviceBuffer<Fr> d_scalars = on_device(scalars, staging);
    if (lg <= 20) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto host = ec::msm<ec::G2Curve>(bench_points_g2(n), scalars);
      const double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      const bool same = msm.sum(bases, d_scalars.data(), n, nullptr) == host;
      std::printf("%-6u check against ec::msm: %s (host %.1f ms on %d threads)\n", lg, same ? "equal" : "DIFFERENT",
                  host_ms, tbb::this_task_arena::max_concurrency());
    }
    const unsigned def = gpu::DeviceMsm::default_window_bits<ec::G2Curve>(n);
    for (unsigned c = def - 1; c <= def + 2; ++c) {
      const double ms = timer.median_ms(nullptr, [&](cudaStream_t s) { msm.sum(bases, d_scalars.data(), n, s, c); });
      std::printf("%-6u %-8u %12.2f%s\n", lg, c, ms, c == def ? "  (default)" : "");
      std::fflush(stdout);
    }
  }
}

// What one resident sum costs at the sizes a streamed MSM's chunks take, for
// both groups and both kinds of scalars (random; a PoRep witness's mix: 51 % zeros,
// 47 % ones): CUDA-event time beside wall time (the host's Horner and the
// synchronizations), and the phases. The fixed part of a chunk is what a streamed
// sum pays per chunk beyond its share of the resident sum.
template <class Curve>
void bench_msm_chunks_of(unsigned max_log, const char* group) {
  gpu::PinnedStaging staging;
  gpu::DeviceMsm msm;
  EventTimer timer;
  const std::size_t most = std::size_t{1} << max_log;
  const gpu::DeviceBases<Curve> bases = [&] {
    if constexpr (std::is_same_v<Curve, ec::G1Curve>) {
      return gpu::DeviceBases<Curve>(bench_points(most), staging, nullptr);
    } else {
      return gpu::DeviceBases<Curve>(bench_points_g2(most), staging, nullptr);
    }
  }();
  for (const bool witness : {true, false}) {
    const std::vector<Fr> scalars =
        witness ? ec::msm_testing::witness_like_scalars(most, 51, 47, max_log) : random_fr(most, max_log);
    const gpu::DeviceBuffer<Fr> d_scalars = on_device(scalars, staging);
    for (unsigned lg = 18; lg <= max_log; lg += 2) {
      const std::size_t n = std::size_t{1} << lg;
      msm.set_phase_timing(false);
      const double ms = timer.median_ms(nullptr, [&](cudaStream_t s) { msm.sum(bases, d_scalars.data(), n, s); });
      std::vector<double> wall;
      for (int run = 0; run < kRuns; ++run) {
        const auto t0 = std::chrono::steady_clock::now();
        msm.sum(bases, d_scalars.data(), n, nullptr);
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
      std::sort(wall.begin(), wall.end());
      msm.set_phase_timing(true);
      msm.sum(bases, d_scalars.data(), n, nullptr);
      const gpu::MsmPhaseTimes& t = msm.last_phases();
      std::printf("%s %-8s 2^%-3u %9.2f %9.2f | %7.2f %7.2f %7.2f %10.2f %7.2f %7.2f\n", group,
                  witness ? "witness" : "random", lg, ms, wall[wall.size() / 2], t.digits, t.sort, t.order,
                  t.accumulate, t.reduce, t.ones);
      std::fflush(stdout);
    }
  }
  msm.set_phase_timing(false);
}

void bench_msm_chunks(unsigned max_log) {
  std::printf("\n== MSM per chunk size (resident; events ms, wall ms | phases, ms) ==\n");
  std::printf("group scalars  n       events      wall |  digits    sort   order accumulate  reduce    ones\n");
  bench_msm_chunks_of<ec::G1Curve>(max_log, "G1");
  bench_msm_chunks_of<ec::G2Curve>(max_log, "G2");
}

void bench_ntt(unsigned max_log) {
  std::printf("\n== NTT over Fr (data on the device) ==\n");
  // The last column: the h step with tables for every stage's twiddles (2·32·N bytes),
  // against the default's tables for the low stages and computed twiddles above.
  std::printf("%-6s %14s %14s %14s %14s %16s\n", "log n", "fwd nat->nat", "fwd nat->rev", "inv nat->nat",
              "h (a,b,c)", "h, all tabled");
  const std::vector<Fr> seed_values = random_fr(std::size_t{1} << 20, 5);
  EventTimer timer;
  for (unsigned lg = 20; lg <= max_log; ++lg) {
    const std::size_t n = std::size_t{1} << lg;
    const gpu::DeviceNtt ntt{poly::EvaluationDomain(n)};
    gpu::DeviceBuffer<Fr> a(n), b(n), c(n);
    for (std::size_t off = 0; off < n; off += seed_values.size()) {
      for (Fr* v : {a.data(), b.data(), c.data()}) {
        gpu::check(cudaMemcpy(v + off, seed_values.data(), seed_values.size() * sizeof(Fr), cudaMemcpyHostToDevice),
                   "fill");
      }
    }
    const double nn = timer.median_ms(nullptr, [&](cudaStream_t s) {
      ntt.forward(a.data(), poly::NttOrder::natural_to_natural, s);
    });
    const double nr = timer.median_ms(nullptr, [&](cudaStream_t s) {
      ntt.forward(a.data(), poly::NttOrder::natural_to_bit_reversed, s);
    });
    const double inv = timer.median_ms(nullptr, [&](cudaStream_t s) {
      ntt.inverse(a.data(), poly::NttOrder::natural_to_natural, s);
    });
    const double h = timer.median_ms(nullptr, [&](cudaStream_t s) {
      ntt.h_scalars(a.data(), b.data(), c.data(), true, s);
    });
    const gpu::DeviceNtt tabled(poly::EvaluationDomain(n), gpu::DeviceNtt::kDefaultTileLog, lg);
    const double h_tabled = timer.median_ms(nullptr, [&](cudaStream_t s) {
      tabled.h_scalars(a.data(), b.data(), c.data(), true, s);
    });
    std::printf("%-6u %14.2f %14.2f %14.2f %14.2f %16.2f\n", lg, nn, nr, inv, h, h_tabled);
    std::fflush(stdout);
  }
}

// Forward nat→nat at a few sizes for every pass tile, to choose the default.
void bench_ntt_tiles(unsigned max_log) {
  std::printf("\n== NTT pass tile (forward nat->nat, ms) ==\n");
  std::printf("%-6s", "log n");
  for (unsigned t = 8; t <= gpu::DeviceNtt::kMaxTileLog; ++t) std::printf(" %9s%-2u", "tile 2^", t);
  std::printf("\n");
  const std::vector<Fr> seed_values = random_fr(std::size_t{1} << 20, 6);
  EventTimer timer;
  for (unsigned lg : {20u, 24u, 26u, 27u}) {
    if (lg > max_log) break;
    const std::size_t n = std::size_t{1} << lg;
    const poly::EvaluationDomain domain(n);
    gpu::DeviceBuffer<Fr> a(n);
    for (std::size_t off = 0; off < n; off += seed_values.size()) {
      gpu::check(cudaMemcpy(a.data() + off, seed_values.data(), seed_values.size() * sizeof(Fr),
                            cudaMemcpyHostToDevice),
                 "fill");
    }
    std::printf("%-6u", lg);
    for (unsigned t = 8; t <= gpu::DeviceNtt::kMaxTileLog; ++t) {
      const gpu::DeviceNtt ntt(domain, t);
      std::printf(" %11.2f", timer.median_ms(nullptr, [&](cudaStream_t s) {
        ntt.forward(a.data(), poly::NttOrder::natural_to_natural, s);
      }));
      std::fflush(stdout);
    }
    std::printf("\n");
  }
}

// A Filecoin-shaped partition without a circuit: N constraints, N aux variables
// (60% zeros, 30% ones, the rest random), a = random, b = bits, c = a·b; a key of
// matching shape with repeated random points (G1 and G2). The proof is not meant to verify:
// only start()'s work is measured.
struct SyntheticPartition {
  groth16::ProvingKey key;
  groth16::PartitionWitness witness;

  // start() takes its witness: each run proves a copy, made before the clock starts
  // (a, b, c are freed as start() returns, inside the timing, as in the engine).
  groth16::PartitionWitness witness_copy() const {
    groth16::PartitionWitness copy;
    copy.a = witness.a;
    copy.b = witness.b;
    copy.c = witness.c;
    copy.assignment = witness.assignment;
    return copy;
  }
};

SyntheticPartition synthetic_partition(unsigned lg) {
  const std::size_t n = std::size_t{1} << lg;
  SyntheticPartition p;
  groth16::PartitionWitness& w = p.witness;
  w.a = random_fr(n, 11);
  w.b = ec::msm_testing::witness_like_scalars(n, 50, 50, 12);
  w.c.resize(n);
  tbb::parallel_for(std::size_t{0}, n, [&](std::size_t i) { w.c[i] = w.a[i] * w.b[i]; });
  groth16::Assignment& z = w.assignment;
  z.inputs = {Fr::one(), Fr::from_u64(5)};
  z.aux = ec::msm_testing::witness_like_scalars(n, 60, 30, 13);
  z.a_aux_density.resize(n);
  z.b_input_density.resize(2);
  z.b_aux_density.resize(n);
  p.key.density.a_aux.assign(n, false);
  p.key.density.b_input.assign(2, true);
  p.key.density.b_aux.assign(n, false);
  z.b_input_density.set(0);
  z.b_input_density.set(1);
  std::size_t a_count = 0, b_count = 2;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 8 != 0) {
      z.a_aux_density.set(i);
      p.key.density.a_aux[i] = true;
      ++a_count;
    }
    if (i % 2 == 0) {
      z.b_aux_density.set(i);
      p.key.density.b_aux[i] = true;
      ++b_count;
    }
  }
  const std::vector<Affine> points = bench_points(n);
  auto prefix = [&](std::size_t k) { return std::vector<Affine>(points.begin(), points.begin() + k); };
  p.key.a = prefix(2 + a_count);
  p.key.b_g1 = prefix(b_count);
  p.key.l = prefix(n);
  p.key.h = prefix(n - 1);
  p.key.b_g2 = bench_points_g2(b_count);
  p.key.vk.beta_g2 = p.key.b_g2[0];
  p.key.vk.delta_g2 = p.key.b_g2[1];
  p.key.vk.ic = prefix(2);
  p.key.vk.alpha_g1 = points[1];
  p.key.vk.beta_g1 = points[2];
  p.key.vk.delta_g1 = points[3];
  return p;
}

// Frees a key's device points when the key goes, so the next size's key has the
// device to itself.
class ScopedRelease {
 public:
  ScopedRelease(gpu::CudaProver& prover, const groth16::ProvingKey& key) : prover_(prover), key_(key) {}
  ~ScopedRelease() { prover_.release(key_); }
  ScopedRelease(const ScopedRelease&) = delete;
  ScopedRelease& operator=(const ScopedRelease&) = delete;

 private:
  gpu::CudaProver& prover_;
  const groth16::ProvingKey& key_;
};

void bench_start(unsigned max_log) {
  std::printf("\n== CudaProver::start, synthetic Filecoin-shaped partition (wall ms, median of %d) ==\n", kRuns);
  gpu::CudaProver prover;
  // 2^27 is a full PoRep partition's domain; by estimate, 2^28's synthetic key and
  // witness would not fit in the H200 machine's host memory.
  for (unsigned lg : {20u, 22u, 24u, 26u, 27u}) {
    if (lg > max_log) break;
    SyntheticPartition p = synthetic_partition(lg);
    const ScopedRelease release(prover, p.key);
    std::vector<double> total;
    std::vector<groth16::StageTime> stages;
    for (int run = 0; run <= kRuns; ++run) {
      groth16::PartitionWitness witness = p.witness_copy();
      const auto t0 = std::chrono::steady_clock::now();
      auto pending = prover.start(std::move(witness), p.key, groth16::Blinding::zero());
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      if (run > 0) total.push_back(ms);  // run 0 uploads the key and warms up
      stages = pending->timings;
      prover.abort(std::move(pending));
    }
    std::sort(total.begin(), total.end());
    std::printf("2^%u: start %.1f ms;", lg, total[total.size() / 2]);
    for (const auto& s : stages) std::printf(" %s %.1f", s.stage.c_str(), 1e3 * s.seconds);
    std::printf(" (last run, ms); points %s\n",
                prover.base_placement(p.key) == gpu::BasePlacement::kResident ? "resident" : "streamed");
    std::fflush(stdout);
  }
}

// The whole partition proof, start() then finish(), on the synthetic partition — the
// shape of supraseal C2's per-proof wall time — with the B query's G2 MSM in start()
// on the device, then in finish() on the host's threads.
void bench_prove(unsigned max_log) {
  std::printf("\n== CudaProver start + finish, synthetic partition (wall ms; host G2 MSM on %d threads) ==\n",
              tbb::this_task_arena::max_concurrency());
  for (unsigned lg : {20u, 22u, 24u, 26u}) {
    if (lg > max_log) break;
    SyntheticPartition p = synthetic_partition(lg);
    for (const bool g2_on_device : {true, false}) {
      gpu::CudaProver prover(0, gpu::CudaProverOptions{.g2_msm_on_device = g2_on_device});
      for (int run = 0; run < 3; ++run) {  // run 0 uploads the key and warms up
        groth16::PartitionWitness witness = p.witness_copy();
        const auto t0 = std::chrono::steady_clock::now();
        auto pending = prover.start(std::move(witness), p.key, groth16::Blinding::zero());
        const auto t1 = std::chrono::steady_clock::now();
        const std::vector<groth16::StageTime> stages = pending->timings;
        [[maybe_unused]] const groth16::Proof proof = prover.finish(std::move(pending));
        const auto t2 = std::chrono::steady_clock::now();
        if (run == 0) continue;
        std::printf("2^%u G2 on %s: start %.1f ms, finish %.1f ms, proof %.1f ms;", lg,
                    g2_on_device ? "device" : "host", std::chrono::duration<double, std::milli>(t1 - t0).count(),
                    std::chrono::duration<double, std::milli>(t2 - t1).count(),
                    std::chrono::duration<double, std::milli>(t2 - t0).count());
        for (const auto& s : stages) std::printf(" %s %.1f", s.stage.c_str(), 1e3 * s.seconds);
        std::printf("\n");
        std::fflush(stdout);
      }
    }
  }
}

}  // namespace

// The other process of a shared card: takes all but free_gib of the free memory,
// says how much it holds, and keeps it for `seconds`.
int hold_device_memory(double free_gib, double seconds) {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  zkpipe::gpu::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const auto leave = static_cast<std::size_t>(free_gib * double(1 << 30));
  if (free_bytes <= leave) {
    std::printf("hold: only %.2f GiB free, nothing to hold\n", free_bytes / double(1 << 30));
    return 1;
  }
  void* held = nullptr;
  zkpipe::gpu::check(cudaMalloc(&held, free_bytes - leave), "cudaMalloc (hold)");
  zkpipe::gpu::check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  std::printf("hold: %.2f GiB held, %.2f GiB left free of %.2f GiB, for %.0f s\n",
              (total_bytes - free_bytes) / double(1 << 30), free_bytes / double(1 << 30),
              total_bytes / double(1 << 30), seconds);
  std::fflush(stdout);
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  cudaFree(held);
  return 0;
}

int main(int argc, char** argv) {
  const std::string what = argc > 1 ? argv[1] : "all";
  if (what == "hold") {
    if (argc != 4) {
      std::printf("usage: bench_gpu hold FREE_GIB SECONDS\n");
      return 2;
    }
    return hold_device_memory(std::stod(argv[2]), std::stod(argv[3]));
  }
  const unsigned max_log = argc > 2 ? static_cast<unsigned>(std::stoi(argv[2])) : 24;
  if (zkpipe::gpu::device_count() == 0) {
    std::printf("no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop{};
  zkpipe::gpu::check(cudaGetDeviceProperties(&prop, 0), "properties");
  std::printf("device: %s, %d SMs, %.1f GiB\n", prop.name, prop.multiProcessorCount,
              prop.totalGlobalMem / double(1 << 30));
  if (what == "arith" || what == "all") zkpipe::gpu::bench_arith();
  if (what == "msm" || what == "all") bench_msm(max_log);
  if (what == "msm_streamed") bench_msm_streamed(max_log);
  if (what == "msm_chunks") bench_msm_chunks(max_log);
  if (what == "msm_g2" || what == "all") bench_msm_g2(max_log);
  if (what == "ntt" || what == "all") bench_ntt(std::min(max_log + 3, 27u));
  if (what == "tiles") bench_ntt_tiles(max_log);
  if (what == "start" || what == "all") bench_start(max_log);
  if (what == "prove") bench_prove(max_log);
  return 0;
}
