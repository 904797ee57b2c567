// The sparse product on the device against the host's r1cs::evaluate_abc, bit for
// bit (random circuits over every coefficient and value class, and PoRep-like
// partitions), the aux expansion against CompactValues::expand, and deferred
// witnesses through CudaProver: the same proofs as the CPU backend, unsatisfied
// ones refused.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/cpu_prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "groth16/verifier.hpp"
#include "gpu/cuda_prover.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/sparse_product.hpp"
#include "gpu/staging.hpp"
#include "gpu_test_env.hpp"
#include "r1cs/compact_values.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "circuits/porep_like/porep_circuit.hpp"
#include "r1cs/sparse_product.hpp"

namespace zkpipe::gpu {
namespace {

using ff::Fr;
using r1cs::CompactValues;
using r1cs::CompiledR1cs;
using r1cs::LC;
using r1cs::Variable;

// a, b, c and the aux expansion as the device computes them, downloaded.
struct DeviceResult {
  std::vector<Fr> a;
  std::vector<Fr> b;
  std::vector<Fr> c;
  std::vector<Fr> aux;
  std::size_t first_unsatisfied = 0;
};

std::vector<Fr> download(const DeviceBuffer<Fr>& d, std::size_t n) {
  std::vector<Fr> v(n);
  check(cudaMemcpy(v.data(), d.data(), n * sizeof(Fr), cudaMemcpyDeviceToHost), "download");
  return v;
}

// Over n rows; every output buffer is poisoned first, so rows the kernels skip
// cannot pass for zeros.
DeviceResult device_product(DeviceEvaluator& evaluator, std::span<const Fr> inputs, const CompactValues& aux,
                            std::size_t n, PinnedStaging& staging) {
  DeviceAssignment z;
  z.upload(inputs, aux, staging, nullptr);
  DeviceBuffer<Fr> a(n);
  DeviceBuffer<Fr> b(n);
  DeviceBuffer<Fr> c(n);
  DeviceBuffer<Fr> full(aux.size());
  for (const DeviceBuffer<Fr>* buffer : {&a, &b, &c}) {
    check(cudaMemset(buffer->data(), 0xa5, n * sizeof(Fr)), "poison");
  }
  check(cudaMemset(full.data(), 0xa5, aux.size() * sizeof(Fr)), "poison");
  DeviceResult r;
  r.first_unsatisfied = evaluator.evaluate(z, a.data(), b.data(), c.data(), n, nullptr);
  z.expand_aux(full.data(), nullptr);
  check(cudaDeviceSynchronize(), "sync");
  r.a = download(a, n);
  r.b = download(b, n);
  r.c = download(c, n);
  r.aux = download(full, aux.size());
  return r;
}

DeviceResult device_product(const CompiledR1cs& compiled, std::span<const Fr> inputs, const CompactValues& aux,
                            std::size_t n, PinnedStaging& staging) {
  DeviceEvaluator evaluator(compiled, staging, nullptr);
  return device_product(evaluator, inputs, aux, n, staging);
}

std::size_t host_first_unsatisfied(const r1cs::AbcVectors& abc) {
  for (std::size_t i = 0; i < abc.a.size(); ++i) {
    if (!(abc.a[i] * abc.b[i] == abc.c[i])) return i;
  }
  return abc.a.size();
}

// The host's a, b, c padded with zeros to n rows.
void expect_equal(const DeviceResult& got, const r1cs::AbcVectors& want, std::size_t n, const std::string& what) {
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < n && mismatches < 5; ++i) {
    const bool in = i < want.a.size();
    const Fr wa = in ? want.a[i] : Fr::zero();
    const Fr wb = in ? want.b[i] : Fr::zero();
    const Fr wc = in ? want.c[i] : Fr::zero();
    if (!(got.a[i] == wa && got.b[i] == wb && got.c[i] == wc)) {
      ADD_FAILURE() << what << ": row " << i << " differs";
      ++mismatches;
    }
  }
}

Fr signed_fr(std::int64_t k) {
  const Fr m = Fr::from_u64(static_cast<std::uint64_t>(k < 0 ? -k : k));
  return k < 0 ? -m : m;
}

// Every coefficient class of the compiled form: ±1, small inline, the inline limit
// ±2^30 and just past it (table), bit-packing powers past 2^30, zero, wide.
Fr random_coefficient(std::mt19937_64& rng) {
  switch (rng() % 9) {
    case 0: return Fr::one();
    case 1: return -Fr::one();
    case 2: return signed_fr(static_cast<std::int64_t>(rng() % 1000) - 500);
    case 3: return Fr::from_u64(std::uint64_t{1} << (rng() % 36));
    case 4: return signed_fr(std::int64_t{1} << 30);
    case 5: return signed_fr(-(std::int64_t{1} << 30));
    case 6: return signed_fr((std::int64_t{1} << 30) + 1);
    case 7: return Fr::zero();
    default: return Fr::random(rng);
  }
}

// Every value class: 0 and 1 (bits), p − 1, small and random wide values.
Fr random_value(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0:
    case 1: return Fr::zero();
    case 2:
    case 3: return Fr::one();
    case 4: return -Fr::one();
    default: return rng() % 2 ? Fr::from_u64(rng() % 100) : Fr::random(rng);
  }
}

constexpr std::size_t kRandomInputs = 6;  // ONE included
constexpr std::size_t kRandomAux = 1000;  // not a multiple of 64

// Rows of 0 to 40 random terms over inputs and aux (repeats included), then long
// rows whose small sums pass 2^32 both ways (a 64-bit sum, converted once).
CompiledR1cs compile_random_circuit() {
  r1cs::CompilingSystem cs;
  std::mt19937_64 shape(99);
  const auto unused = [] { return Fr::zero(); };  // the compiler asks no values
  std::vector<Variable> vars{Variable::one()};
  for (std::size_t i = 1; i < kRandomInputs; ++i) vars.push_back(cs.alloc_input(unused));
  for (std::size_t i = 0; i < kRandomAux; ++i) vars.push_back(cs.alloc(unused));
  auto random_lc = [&] {
    LC lc;
    const std::size_t terms = shape() % 41;
    for (std::size_t t = 0; t < terms; ++t) lc.add(random_coefficient(shape), vars[shape() % vars.size()]);
    return lc;
  };
  for (int i = 0; i < 3000; ++i) {
    const LC a = random_lc();
    const LC b = random_lc();
    const LC c = random_lc();
    cs.enforce(a, b, c);
  }
  for (std::int64_t k : {(std::int64_t{1} << 30) - 1, -(std::int64_t{1} << 30)}) {
    LC lc;
    for (int t = 0; t < 300; ++t) lc.add(signed_fr(k), vars[static_cast<std::size_t>(t) % vars.size()]);
    cs.enforce(lc, lc, random_lc());
  }
  return std::move(cs).finish();
}

TEST(DeviceSparseProduct, EqualsHostOnRandomCircuits) {
  ZKPIPE_REQUIRE_GPU();
  const CompiledR1cs compiled = compile_random_circuit();
  ASSERT_EQ(compiled.num_inputs, kRandomInputs);
  ASSERT_EQ(compiled.num_aux, kRandomAux);
  ASSERT_GT(compiled.coefficient_table.size(), 0u);
  PinnedStaging staging(std::size_t{1} << 12);  // small chunks: several per upload
  for (std::uint64_t seed : {2, 3, 4}) {
    std::mt19937_64 rng(seed);
    std::vector<Fr> inputs{Fr::one()};
    for (std::size_t i = 1; i < kRandomInputs; ++i) inputs.push_back(random_value(rng));
    std::vector<Fr> aux(kRandomAux);
    for (Fr& x : aux) x = random_value(rng);
    const CompactValues compact = CompactValues::of(aux);
    const r1cs::AbcVectors want = r1cs::evaluate_abc(compiled, inputs, compact);
    const std::size_t n = compiled.num_constraints + 37;  // padding rows past the constraints
    const DeviceResult got = device_product(compiled, inputs, compact, n, staging);
    expect_equal(got, want, n, "seed " + std::to_string(seed));
    // Random rows are mostly unsatisfied: the device names the same first one.
    EXPECT_EQ(got.first_unsatisfied, host_first_unsatisfied(want)) << "seed " << seed;
    EXPECT_TRUE(got.aux == aux) << "seed " << seed;
  }
}

// The matrices streamed in chunks of rows (one row each, a few rows, one chunk for
// all) give what the host gives, name the same first unsatisfied row, and send
// every matrix entry exactly once per evaluation.
TEST(DeviceSparseProduct, StreamedEqualsHost) {
  ZKPIPE_REQUIRE_GPU();
  auto compiled = std::make_shared<const CompiledR1cs>(compile_random_circuit());
  std::size_t matrices = 0;
  for (const auto* m : {&compiled->a, &compiled->b, &compiled->c}) {
    matrices += m->row_offsets.size() * sizeof(std::uint64_t) + m->nonzeros() * 2 * sizeof(std::uint32_t);
  }
  PinnedStaging staging(std::size_t{1} << 12);
  std::mt19937_64 rng(11);
  std::vector<Fr> inputs{Fr::one()};
  for (std::size_t i = 1; i < kRandomInputs; ++i) inputs.push_back(random_value(rng));
  std::vector<Fr> aux(kRandomAux);
  for (Fr& x : aux) x = random_value(rng);
  const CompactValues compact = CompactValues::of(aux);
  const r1cs::AbcVectors want = r1cs::evaluate_abc(*compiled, inputs, compact);
  const std::size_t n = compiled->num_constraints + 19;
  for (std::size_t chunk_bytes : {std::size_t{1}, std::size_t{3000}, std::size_t{1} << 30}) {
    const std::string label = "chunks of " + std::to_string(chunk_bytes) + " bytes";
    DeviceEvaluator evaluator(compiled, staging, chunk_bytes);
    ASSERT_TRUE(evaluator.streamed());
    const DeviceResult got = device_product(evaluator, inputs, compact, n, staging);
    expect_equal(got, want, n, label);
    EXPECT_EQ(got.first_unsatisfied, host_first_unsatisfied(want)) << label;
    // Each chunk's row offsets carry one more than its rows.
    EXPECT_GE(evaluator.last_sent_bytes(), matrices) << label;
    EXPECT_LE(evaluator.last_sent_bytes(), matrices + 3 * compiled->num_constraints * sizeof(std::uint64_t)) << label;
  }
  EXPECT_LT(DeviceEvaluator::streamed_bytes(*compiled, 3000), DeviceEvaluator::resident_bytes(*compiled));
  EXPECT_EQ(DeviceEvaluator(*compiled, staging, nullptr).device_bytes(), DeviceEvaluator::resident_bytes(*compiled));
}

TEST(DeviceSparseProduct, RefusesAnAssignmentOfAnotherShape) {
  ZKPIPE_REQUIRE_GPU();
  const CompiledR1cs compiled = compile_random_circuit();
  PinnedStaging staging;
  DeviceEvaluator evaluator(compiled, staging, nullptr);
  DeviceAssignment z;
  const std::vector<Fr> inputs(kRandomInputs, Fr::one());
  z.upload(inputs, CompactValues::of(std::vector<Fr>(kRandomAux - 1, Fr::one())), staging, nullptr);
  DeviceBuffer<Fr> abc(3 * compiled.num_constraints);
  Fr* a = abc.data();
  Fr* b = a + compiled.num_constraints;
  Fr* c = b + compiled.num_constraints;
  EXPECT_THROW(evaluator.evaluate(z, a, b, c, compiled.num_constraints, nullptr), std::invalid_argument);
  z.upload(inputs, CompactValues::of(std::vector<Fr>(kRandomAux, Fr::one())), staging, nullptr);
  EXPECT_THROW(evaluator.evaluate(z, a, b, c, compiled.num_constraints - 1, nullptr), std::invalid_argument);
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// PoRep-like partitions: every row satisfied, the device's a, b, c and aux equal
// the host's. Prints the host's materialization time (evaluate_abc and expand, all
// cores) against the device's (upload of the compact assignment, product with its
// check, expansion), the evaluator already resident.
class DeviceSparseProductPorep : public ::testing::TestWithParam<const char*> {};

TEST_P(DeviceSparseProductPorep, EqualsHost) {
  ZKPIPE_REQUIRE_GPU();
  porep_like::PorepLikeCircuit circuit(porep_like::find_preset(GetParam()), 2024, 2);
  const CompiledR1cs compiled = groth16::compile_circuit(circuit);
  const r1cs::WitnessValues values = circuit.synthesize_values(1, compiled.num_inputs, compiled.num_aux);
  ASSERT_EQ(values.aux.size(), compiled.num_aux);

  auto t = std::chrono::steady_clock::now();
  const r1cs::AbcVectors want = r1cs::evaluate_abc(compiled, values.inputs, values.aux);
  const std::vector<Fr> want_aux = values.aux.expand();
  const double host_seconds = seconds_since(t);

  std::size_t n = 1;
  while (n < compiled.num_constraints) n *= 2;
  PinnedStaging staging;
  const DeviceResult got = device_product(compiled, values.inputs, values.aux, n, staging);
  expect_equal(got, want, n, GetParam());
  EXPECT_EQ(got.first_unsatisfied, compiled.num_constraints);
  EXPECT_TRUE(got.aux == want_aux);

  DeviceEvaluator evaluator(compiled, staging, nullptr);
  DeviceAssignment z;
  DeviceBuffer<Fr> a(n);
  DeviceBuffer<Fr> b(n);
  DeviceBuffer<Fr> c(n);
  DeviceBuffer<Fr> aux(compiled.num_aux);
  double device_seconds = 0;
  for (int run = 0; run < 2; ++run) {  // the first one loads the kernels
    t = std::chrono::steady_clock::now();
    z.upload(values.inputs, values.aux, staging, nullptr);
    EXPECT_EQ(evaluator.evaluate(z, a.data(), b.data(), c.data(), n, nullptr), compiled.num_constraints);
    z.expand_aux(aux.data(), nullptr);
    check(cudaDeviceSynchronize(), "sync");
    device_seconds = seconds_since(t);
  }
  std::cout << "[ sparse product " << GetParam() << ": " << compiled.num_constraints << " constraints, "
            << compiled.nonzeros() << " non-zeros, " << compiled.num_aux << " aux; host abc + expand "
            << host_seconds * 1e3 << " ms, device upload + abc + expand " << device_seconds * 1e3 << " ms ]\n";
}

INSTANTIATE_TEST_SUITE_P(Presets, DeviceSparseProductPorep, ::testing::Values("tiny", "2e16"));

bool timed(const groth16::PendingProof& p, const std::string& stage) {
  for (const auto& t : p.timings) {
    if (t.stage == stage) return true;
  }
  return false;
}

// The G2 MSM on the device (the default) and on the host, whose finish() needs the
// full aux on the host.
class CudaProverDeferred : public ::testing::TestWithParam<bool> {};

TEST_P(CudaProverDeferred, ProofsEqualCpuProofsAndVerify) {
  ZKPIPE_REQUIRE_GPU();
  porep_like::PorepLikeCircuit circuit(porep_like::find_preset("tiny"), 2024, 3);
  const groth16::ProvingKey key =
      groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(1));
  const groth16::PreparedVerifyingKey pvk(key.vk);
  auto compiled = std::make_shared<const CompiledR1cs>(groth16::compile_circuit(circuit));
  groth16::CpuProver cpu;
  CudaProver gpu(0, CudaProverOptions{.g2_msm_on_device = GetParam()});
  for (std::size_t p = 0; p < circuit.partitions(); ++p) {
    // The last partition comes with another evaluator object (the device copy is
    // replaced); the ones before share one (it stays).
    if (p == circuit.partitions() - 1) compiled = std::make_shared<const CompiledR1cs>(groth16::compile_circuit(circuit));
    groth16::PartitionWitness w_cpu = groth16::synthesize_witness(circuit, p);
    groth16::PartitionWitness w_gpu = groth16::synthesize_witness(circuit, p, compiled);
    ASSERT_TRUE(w_gpu.is_deferred());
    const groth16::Proof expected = groth16::prove(cpu, std::move(w_cpu), key, groth16::Blinding::zero());
    auto pending = gpu.start(std::move(w_gpu), key, groth16::Blinding::zero());
    EXPECT_TRUE(timed(*pending, "abc_device")) << "partition " << p;
    EXPECT_FALSE(timed(*pending, "upload_abc")) << "partition " << p;
    // The host never held the full aux unless finish() reads it; the compact form
    // stays with the assignment, freed where the caller lets go of it.
    ASSERT_NE(pending->assignment, nullptr);
    EXPECT_EQ(pending->assignment->aux.empty(), GetParam()) << "partition " << p;
    EXPECT_FALSE(pending->assignment->compact_aux.empty()) << "partition " << p;
    const groth16::Proof proof = gpu.finish(std::move(pending));
    EXPECT_EQ(proof, expected) << "partition " << p;
    EXPECT_TRUE(groth16::verify(pvk, proof, circuit.public_inputs(p))) << "partition " << p;
  }
  // release() frees the evaluator's copy with the key's points.
  const std::size_t held = gpu.device_bytes();
  gpu.release(key);
  EXPECT_LE(gpu.device_bytes() + compiled->matrix_bytes(), held);
}

INSTANTIATE_TEST_SUITE_P(G2MsmOnDevice, CudaProverDeferred, ::testing::Bool());

// One 0/1 aux value flipped: the device check refuses the witness naming the first
// constraint the host finds broken, and the prover goes on to prove the next one.
TEST(CudaProverDeferredCheck, UnsatisfiedWitnessIsRefused) {
  ZKPIPE_REQUIRE_GPU();
  porep_like::PorepLikeCircuit circuit(porep_like::find_preset("tiny"), 2024, 1);
  const groth16::ProvingKey key =
      groth16::setup(groth16::record_matrices(circuit), groth16::ToxicWaste::from_seed(1));
  const auto compiled = std::make_shared<const CompiledR1cs>(groth16::compile_circuit(circuit));
  CudaProver gpu(0);

  // The first 0/1 value from the middle on whose flip the host finds a constraint broken.
  groth16::PartitionWitness broken = groth16::synthesize_witness(circuit, 0, compiled);
  const std::vector<Fr> aux = broken.assignment.compact_aux.expand();
  std::size_t bad = compiled->num_constraints;
  for (std::size_t flip = aux.size() / 2; flip < aux.size() && bad == compiled->num_constraints; ++flip) {
    if (!aux[flip].is_zero() && !aux[flip].is_one()) continue;
    std::vector<Fr> flipped = aux;
    flipped[flip] = aux[flip].is_zero() ? Fr::one() : Fr::zero();
    broken.assignment.compact_aux = CompactValues::of(flipped);
    bad = host_first_unsatisfied(
        r1cs::evaluate_abc(*compiled, broken.assignment.inputs, broken.assignment.compact_aux));
  }
  ASSERT_LT(bad, compiled->num_constraints) << "no single flip broke a constraint";
  try {
    (void)gpu.start(std::move(broken), key, groth16::Blinding::zero());
    ADD_FAILURE() << "an unsatisfied deferred witness was accepted";
  } catch (const groth16::UnsatisfiedConstraint& e) {
    EXPECT_EQ(e.index(), bad);
  }

  groth16::PartitionWitness good = groth16::synthesize_witness(circuit, 0, compiled);
  EXPECT_TRUE(groth16::verify(groth16::PreparedVerifyingKey(key.vk),
                              groth16::prove(gpu, std::move(good), key, groth16::Blinding::random()), circuit.public_inputs(0)));
}

}  // namespace
}  // namespace zkpipe::gpu
