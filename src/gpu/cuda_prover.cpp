#include "gpu/cuda_prover.hpp"

#include <map>
#include <mutex>
#include <span>
#include <tuple>
#include <vector>

#include "ec/msm.hpp"
#include "groth16/assembly.hpp"
#include "groth16/cpu_prover.hpp"
#include "gpu/cuda_error.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm.hpp"
#include "gpu/ntt.hpp"
#include "gpu/staging.hpp"

namespace zkpipe::gpu {

using ff::Fr;
using groth16::Blinding;
using groth16::PartitionWitness;
using groth16::PendingProof;
using groth16::Proof;
using groth16::ProvingKey;
using G1 = ec::Jacobian<ec::G1Curve>;

namespace {

struct KeyBases {
  DeviceG1Bases a;
  DeviceG1Bases b_g1;
  DeviceG1Bases l;
  DeviceG1Bases h;

  std::size_t bytes() const { return (a.size() + b_g1.size() + l.size() + h.size()) * sizeof(G1AffineWords); }
};

// A key is recognised by where its queries live and how long they are.
using KeyId = std::tuple<const void*, const void*, const void*, const void*, std::size_t>;

KeyId key_id(const ProvingKey& key) {
  return {key.a.data(), key.b_g1.data(), key.l.data(), key.h.data(), key.h.size()};
}

}  // namespace

struct CudaProver::State {
  int device;
  cudaStream_t stream = nullptr;
  PinnedStaging staging;
  DeviceMsm msm;
  DeviceBuffer<Fr> a;
  DeviceBuffer<Fr> b;
  DeviceBuffer<Fr> c;
  DeviceBuffer<Fr> scalars;
  std::map<KeyId, std::unique_ptr<KeyBases>> bases;
  std::map<std::pair<std::size_t, groth16::HQuery>, std::unique_ptr<DeviceNtt>> ntts;
  std::mutex mutex;

  explicit State(int ordinal) : device(ordinal) {
    check(cudaSetDevice(device), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  ~State() { cudaStreamDestroy(stream); }

  const KeyBases& bases_for(const ProvingKey& key) {
    auto& slot = bases[key_id(key)];
    if (!slot) {
      slot = std::make_unique<KeyBases>(KeyBases{DeviceG1Bases(key.a.span(), staging, stream),
                                                 DeviceG1Bases(key.b_g1.span(), staging, stream),
                                                 DeviceG1Bases(key.l.span(), staging, stream),
                                                 DeviceG1Bases(key.h.span(), staging, stream)});
    }
    return *slot;
  }

  const DeviceNtt& ntt_for(const ProvingKey& key) {
    auto& slot = ntts[{key.domain_size(), key.h_query}];
    if (!slot) slot = std::make_unique<DeviceNtt>(groth16::h_query_domain(key.h_query, key.domain_size()));
    return *slot;
  }

  // The evaluations v (fewer than n allowed) into dst, zero-padded to n.
  void upload_padded(DeviceBuffer<Fr>& dst, const std::vector<Fr>& v, std::size_t n) {
    dst.reserve(n);
    staging.upload(dst.data(), std::span<const Fr>(v), stream);
    if (v.size() < n) {
      check(cudaMemsetAsync(dst.data() + v.size(), 0, (n - v.size()) * sizeof(Fr), stream), "zero padding");
    }
  }

  G1 host_msm(const DeviceG1Bases& bases, const std::vector<Fr>& host_scalars) {
    scalars.reserve(host_scalars.size());
    staging.upload(scalars.data(), std::span<const Fr>(host_scalars), stream);
    return msm.sum(bases, scalars.data(), host_scalars.size(), stream);
  }

  void sync() { check(cudaStreamSynchronize(stream), "prover stream"); }
};

CudaProver::CudaProver(int device) : state_(std::make_unique<State>(device)) {}

CudaProver::~CudaProver() = default;

std::unique_ptr<PendingProof> CudaProver::start(PartitionWitness& w, const ProvingKey& key,
                                                const Blinding& blinding) {
  groth16::check_witness_matches_key(w, key);
  groth16::check_satisfied(w);
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  check(cudaSetDevice(s.device), "cudaSetDevice");
  auto pending = std::make_unique<groth16::PendingG1Proof>(w, key, blinding);
  groth16::Stopwatch clock;

  const KeyBases& bases = s.bases_for(key);
  const DeviceNtt& ntt = s.ntt_for(key);
  pending->timings.push_back({"gpu_setup", clock.lap()});

  const std::size_t n = key.domain_size();
  s.upload_padded(s.a, w.a, n);
  s.upload_padded(s.b, w.b, n);
  s.upload_padded(s.c, w.c, n);
  s.sync();
  pending->timings.push_back({"upload_abc", clock.lap()});

  ntt.h_scalars(s.a.data(), s.b.data(), s.c.data(), key.h_query == groth16::HQuery::kMonomial, s.stream);
  s.sync();
  pending->timings.push_back({"ntt_h", clock.lap()});

  groth16::G1MsmSums sums;
  sums.h = s.msm.sum(bases.h, s.a.data(), key.h.size(), s.stream);
  pending->timings.push_back({"msm_h", clock.lap()});

  sums.l = s.host_msm(bases.l, w.aux);
  pending->timings.push_back({"msm_l", clock.lap()});

  sums.a = s.host_msm(bases.a, groth16::a_query_scalars(w));
  pending->timings.push_back({"msm_a", clock.lap()});

  sums.b_g1 = s.host_msm(bases.b_g1, groth16::b_query_scalars(w));
  pending->timings.push_back({"msm_b_g1", clock.lap()});

  pending->blind(sums);
  return pending;
}

Proof CudaProver::finish(std::unique_ptr<PendingProof> pending) {
  return groth16::finish_on_cpu(dynamic_cast<const groth16::PendingG1Proof&>(*pending));
}

void CudaProver::abort(std::unique_ptr<PendingProof> pending) { pending.reset(); }

std::size_t CudaProver::device_bytes() const {
  const State& s = *state_;
  std::size_t bytes = (s.a.capacity() + s.b.capacity() + s.c.capacity() + s.scalars.capacity()) * sizeof(Fr);
  for (const auto& [id, bases] : s.bases) bytes += bases->bytes();
  return bytes;
}

}  // namespace zkpipe::gpu
