#include "gpu/cuda_prover.hpp"

#include <map>
#include <mutex>
#include <span>
#include <tuple>
#include <vector>

#include "ec/msm.hpp"
#include "groth16/assembly.hpp"
#include "groth16/cpu_prover.hpp"
#include "gpu/compact.hpp"
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
  cudaStream_t copy_stream = nullptr;  // aux goes up here while the h step runs
  CudaEvent aux_uploaded;
  PinnedStaging staging;
  DeviceMsm msm;
  DeviceBuffer<Fr> a;
  DeviceBuffer<Fr> b;
  DeviceBuffer<Fr> c;
  DeviceBuffer<Fr> aux;
  DeviceBuffer<Fr> scalars;
  DeviceSelect select;
  std::map<KeyId, std::unique_ptr<KeyBases>> bases;
  std::map<std::pair<std::size_t, groth16::HQuery>, std::unique_ptr<DeviceNtt>> ntts;
  std::mutex mutex;

  explicit State(int ordinal) : device(ordinal) {
    check(cudaSetDevice(device), "cudaSetDevice");
    check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking), "cudaStreamCreate");
  }
  ~State() {
    cudaStreamDestroy(copy_stream);
    cudaStreamDestroy(stream);
  }

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

  // Σ over the query of prefix[j]·bases[j] for the host values `prefix`, then the aux
  // values (resident in `aux`) whose density bit is set: the scalar order of
  // groth16::a_query_scalars / b_query_scalars, selected on the device.
  G1 query_msm(const DeviceG1Bases& bases, const std::vector<Fr>& prefix, const r1cs::DensityBitmap& density,
               std::size_t aux_count) {
    const std::size_t total = prefix.size() + count_selected(density, aux_count);
    scalars.reserve(total);
    staging.upload(scalars.data(), std::span<const Fr>(prefix), stream);
    select.select(aux.data(), aux_count, density, scalars.data() + prefix.size(), staging, stream);
    return msm.sum(bases, scalars.data(), total, stream);
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
  // The copy engine takes aux while the multiprocessors run the h step.
  s.aux.reserve(w.aux.size());
  s.staging.upload(s.aux.data(), std::span<const Fr>(w.aux), s.copy_stream);
  check(cudaEventRecord(s.aux_uploaded.get(), s.copy_stream), "record aux upload");
  check(cudaStreamWaitEvent(s.stream, s.aux_uploaded.get()), "wait for aux");
  s.sync();
  pending->timings.push_back({"ntt_h_upload_aux", clock.lap()});

  groth16::G1MsmSums sums;
  sums.h = s.msm.sum(bases.h, s.a.data(), key.h.size(), s.stream);
  pending->timings.push_back({"msm_h", clock.lap()});

  sums.l = s.msm.sum(bases.l, s.aux.data(), w.aux.size(), s.stream);
  pending->timings.push_back({"msm_l", clock.lap()});

  sums.a = s.query_msm(bases.a, w.inputs, w.a_aux_density, w.aux.size());
  pending->timings.push_back({"msm_a", clock.lap()});

  std::vector<Fr> b_inputs;
  for (std::size_t i = 0; i < w.inputs.size(); ++i) {
    if (w.b_input_density.test(i)) b_inputs.push_back(w.inputs[i]);
  }
  sums.b_g1 = s.query_msm(bases.b_g1, b_inputs, w.b_aux_density, w.aux.size());
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
  std::size_t bytes =
      (s.a.capacity() + s.b.capacity() + s.c.capacity() + s.aux.capacity() + s.scalars.capacity()) * sizeof(Fr) +
      s.select.device_bytes();
  for (const auto& [id, bases] : s.bases) bytes += bases->bytes();
  return bytes;
}

}  // namespace zkpipe::gpu
