#include "gpu/cuda_prover.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "ec/msm/msm.hpp"
#include "groth16/assembly.hpp"
#include "groth16/cpu_prover.hpp"
#include "memory/process_memory.hpp"
#include "gpu/compact.hpp"
#include "gpu/cuda_error.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_memory.hpp"
#include "gpu/device_profile.hpp"
#include "gpu/device_query.hpp"
#include "gpu/msm.hpp"
#include "gpu/msm_streamed.hpp"
#include "gpu/ntt.hpp"
#include "gpu/pinned_points.hpp"
#include "gpu/placement.hpp"
#include "gpu/sparse_product.hpp"
#include "gpu/staging.hpp"
#include "gpu/witness_slots.hpp"

namespace zkpipe::gpu {

using ff::Fr;
using groth16::Blinding;
using groth16::PartitionWitness;
using groth16::PendingProof;
using groth16::Proof;
using groth16::ProvingKey;

namespace {

// A key's streamed queries in page-locked host memory, in the device's layout: their
// MSMs' chunks cross by DMA alone (pinned_points.hpp). Only the queries that are not
// resident are copied.
struct PinnedKeyPoints {
  PinnedKeyPoints(const ProvingKey& key, const QueryResidency& resident, bool g2, memory::BufferLedger& ledger) {
    const auto copy = [&](auto& out, const auto& points, bool on_device) {
      if (!on_device) out.emplace(points.span(), points.is_file_mapped(), ledger);
    };
    copy(a, key.a, resident.a);
    copy(b_g1, key.b_g1, resident.b_g1);
    copy(l, key.l, resident.l);
    copy(h, key.h, resident.h);
    if (g2) copy(b_g2, key.b_g2, resident.b_g2);
  }

  std::size_t bytes() const {
    std::size_t total = b_g2 ? b_g2->bytes() : 0;
    for (const auto* q : {&a, &b_g1, &l, &h}) total += *q ? (*q)->bytes() : 0;
    return total;
  }

  std::optional<PinnedG1Points> a;
  std::optional<PinnedG1Points> b_g1;
  std::optional<PinnedG1Points> l;
  std::optional<PinnedG1Points> h;
  std::optional<PinnedG2Points> b_g2;  // when the G2 MSM runs on the device
};

template <class Points>
const Points* pinned_query(const std::optional<Points>& query) {
  return query ? &*query : nullptr;
}

// A key's query points on the device, all of them, some (the others streamed), or none:
// views of the key's own device arrays (a key set up on this device), or of copies
// uploaded from its host arrays and owned here.
struct KeyBases {
  bool streamed = false;  // some query is: its view is empty
  QueryResidency residency;
  DeviceBasesView<ec::G1Curve> a{nullptr, 0};
  DeviceBasesView<ec::G1Curve> b_g1{nullptr, 0};
  DeviceBasesView<ec::G1Curve> l{nullptr, 0};
  DeviceBasesView<ec::G1Curve> h{nullptr, 0};
  DeviceBasesView<ec::G2Curve> b_g2{nullptr, 0};  // empty unless the G2 MSM runs on the device
  // Streamed from a page-locked copy; null: from the key's own host points, through staging.
  std::unique_ptr<const PinnedKeyPoints> pinned;
  std::vector<DeviceG1Bases> uploaded_g1;
  DeviceG2Bases uploaded_g2;

  // Points uploaded from the key's host copy (not the views of a key set up on the device).
  bool uploaded() const { return !uploaded_g1.empty() || uploaded_g2.size() != 0; }

  // Device memory this prover holds for the key (a device key's own arrays not counted).
  std::size_t bytes() const {
    std::size_t total = uploaded_g2.bytes();
    for (const auto& g1 : uploaded_g1) total += g1.bytes();
    return total;
  }
};

// A key is recognised by where its queries live, how long they are, and its δ·G1
// (random per setup): a different key later allocated at the same addresses is
// not taken for the one whose bases are on the device.
struct KeyId {
  std::array<const void*, 5> queries;
  std::array<std::size_t, 5> sizes;
  std::array<std::byte, sizeof(ff::Fp)> delta_x;

  auto operator<=>(const KeyId&) const = default;
};

KeyId key_id(const ProvingKey& key) {
  KeyId id{{key.a.address(), key.b_g1.address(), key.l.address(), key.h.address(), key.b_g2.address()},
           {key.a.size(), key.b_g1.size(), key.l.size(), key.h.size(), key.b_g2.size()},
           {}};
  std::memcpy(id.delta_x.data(), &key.vk.delta_g1.x, sizeof(ff::Fp));
  return id;
}

// groth16::check_witness_sizes for a deferred witness, whose aux values are the
// compact ones and whose constraints are its evaluator's.
void check_deferred_sizes(const PartitionWitness& w, const ProvingKey& key) {
  const r1cs::CompiledR1cs& e = *w.evaluator;
  const groth16::Assignment& z = w.assignment;
  auto refuse = [](const char* what, std::size_t got, std::size_t want, const char* against) {
    throw std::invalid_argument(std::string("witness does not match ") + against + ": " + what + " is " +
                                std::to_string(got) + ", expected " + std::to_string(want));
  };
  if (z.inputs.size() != key.num_inputs()) {
    refuse("the number of public inputs (ONE included)", z.inputs.size(), key.num_inputs(), "the proving key");
  }
  if (z.compact_aux.size() != key.num_aux()) {
    refuse("the number of aux variables", z.compact_aux.size(), key.num_aux(), "the proving key");
  }
  if (e.num_constraints > key.domain_size()) {
    refuse("the number of constraints", e.num_constraints, key.domain_size(), "the proving key");
  }
  if (e.num_inputs != z.inputs.size()) {
    refuse("the number of public inputs (ONE included)", z.inputs.size(), e.num_inputs, "its evaluator");
  }
  if (e.num_aux != z.compact_aux.size()) {
    refuse("the number of aux variables", z.compact_aux.size(), e.num_aux, "its evaluator");
  }
}

// The device memory that start() grows to the largest partition seen and the next
// start() reuses: held together so that a start() that ran out of device memory
// frees all of it at once, and the retry grows only what it needs.
struct Working {
  explicit Working(memory::BufferLedger& ledger)
      : msm(ledger), msm_h(ledger), a(ledger), b(ledger), c(ledger), aux(ledger), scalars(ledger), select(ledger) {}

  std::size_t bytes() const {
    std::size_t total = (a.capacity() + b.capacity() + c.capacity() + aux.capacity() + scalars.capacity()) * sizeof(Fr) +
                        select.device_bytes();
    return total + streamed_bytes();
  }

  // The streamed sums' chunk buffers.
  std::size_t streamed_bytes() const {
    std::size_t total = 0;
    if (streamed_g1) total += streamed_g1->device_bytes();
    if (streamed_g2) total += streamed_g2->device_bytes();
    if (streamed_h) total += streamed_h->device_bytes();
    return total;
  }

  DeviceMsm msm;
  // Made on first use, for keys whose points stay on the host; they share msm's
  // scratch.
  std::unique_ptr<StreamedG1Msm> streamed_g1;
  std::unique_ptr<StreamedG2Msm> streamed_g2;
  // H's streamed sum when it runs beside the others (CudaProverOptions::
  // overlap_streamed_sums): buffers and scratch of its own.
  DeviceMsm msm_h;
  std::unique_ptr<StreamedG1Msm> streamed_h;
  DeviceBuffer<Fr> a;
  DeviceBuffer<Fr> b;
  DeviceBuffer<Fr> c;
  DeviceBuffer<Fr> aux;
  DeviceBuffer<Fr> scalars;
  DeviceSelect select;
  std::map<std::pair<std::size_t, groth16::HQuery>, std::unique_ptr<DeviceNtt>> ntts;
};

std::string gib(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(bytes) / (1 << 30));
  return text;
}

// start()'s blinded G1 sums, and the B query's G2 sum when the device computed it.
struct CudaPendingProof final : groth16::PendingG1Proof {
  using groth16::PendingG1Proof::PendingG1Proof;
  std::optional<ec::Jacobian<ec::G2Curve>> b_g2_sum;
};

}  // namespace

struct CudaProver::State {
  static int select_device(int ordinal) {
    check(cudaSetDevice(ordinal), "cudaSetDevice");
    return ordinal;
  }

  int device;
  // Launch shapes from the device's properties (shared memory per block for the NTT's tile).
  KernelConfig kernels;
  CudaProverOptions options;
  // Every device and page-locked buffer below charges it.
  memory::BufferLedger& ledger;
  cudaStream_t stream = nullptr;
  cudaStream_t copy_stream = nullptr;  // aux goes up here while the h step runs
  // H's streamed sum beside the others: below `stream`'s priority, so that the
  // others' short kernels, which keep the link busy, are not queued behind H's.
  cudaStream_t h_stream = nullptr;
  // The device memory the L, A and B streamed sums may hold while H's runs beside
  // them (H has the rest); 0: no such division, each sizes its chunks from what is free.
  std::size_t beside_h_bytes = 0;
  CudaEvent aux_uploaded;
  // Around each start()'s device work, timed; their spans summed under the mutex.
  CudaEvent region_begin{cudaEventDefault};
  CudaEvent region_end{cudaEventDefault};
  double device_busy_seconds = 0;
  // What the streamed sums sent over the link, and how many MSMs streamed.
  StreamedTotals streamed_totals;
  PinnedStaging staging{ledger};
  std::unique_ptr<Working> work = std::make_unique<Working>(ledger);
  // The most terms one MSM pass sums: the option's, halved by each start() that ran
  // out of device memory (down to kMinMsmPassTerms), as the sort's scratch is the
  // largest working buffer.
  std::size_t msm_pass_terms = options.max_msm_pass_terms;
  std::map<KeyId, std::unique_ptr<KeyBases>> bases;
  // The keys of `bases` whose points are on the device, under their own lock so that
  // the engine's assignment asks without waiting for a kernel region.
  mutable std::mutex on_device_mutex;
  std::set<KeyId> on_device;
  // Deferred witnesses' inputs and compact aux, filled outside the kernel region
  // (used without the mutex), and the device copy of the last evaluator seen. The
  // evaluator is recognised by its host object, held weakly: a different one later
  // allocated at the same address finds the old one expired.
  WitnessSlots witness_slots{ledger};
  std::unique_ptr<DeviceEvaluator> evaluator;
  std::weak_ptr<const r1cs::CompiledR1cs> evaluator_source;
  // Set when a partition ran out of memory beside a resident evaluator.
  bool stream_evaluators = false;
  // Set when a partition ran out of memory: H's sum no longer runs beside the others'
  // (whose memory the division may have misjudged), until release().
  bool overlap_refused = false;
  // The kernel region: everything above but witness_slots is used under it.
  std::mutex mutex;

  // `device` is the first member: selecting it there creates the events and pools
  // of the members after it on that device.
  State(int ordinal, CudaProverOptions opts)
      : device(select_device(ordinal)),
        kernels(choose_kernel_config(query_profile(ordinal))),
        options(opts),
        ledger(opts.ledger != nullptr ? *opts.ledger : memory::BufferLedger::process()) {
    int least = 0;
    int greatest = 0;
    check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
    check(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, greatest), "cudaStreamCreate");
    check(cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking), "cudaStreamCreate");
    check(cudaStreamCreateWithPriority(&h_stream, cudaStreamNonBlocking, least), "cudaStreamCreate");
  }
  ~State() {
    cudaStreamDestroy(h_stream);
    cudaStreamDestroy(copy_stream);
    cudaStreamDestroy(stream);
  }

  // Bytes of the key's points on the device (the G2 ones only when the G2 MSM runs
  // there).
  std::size_t resident_bytes(const ProvingKey& key) const {
    return resident_point_bytes(KeyQuerySizes::of(key), options.g2_msm_on_device);
  }

  // Which of the key's queries stay on the device: with the option set, all or none
  // by their bytes; otherwise planned in the free memory (plan_query_residency): all
  // with passes as long as fit, else those that save the most transfer per byte.
  // The working buffers already held are reused, so they count as free.
  QueryResidency plan_residency(const ProvingKey& key) {
    const bool g2 = options.g2_msm_on_device;
    if (options.max_resident_base_bytes != 0) {
      QueryResidency plan;
      if (resident_bytes(key) <= options.max_resident_base_bytes) {
        plan.a = plan.b_g1 = plan.l = plan.h = true;
        plan.b_g2 = g2;
      }
      plan.msm_pass_terms = msm_pass_terms;
      return plan;
    }
    const std::size_t free_bytes = device_free_bytes() + work->bytes();
    const QueryResidency plan = plan_query_residency(KeyQuerySizes::of(key), msm_pass_terms, g2, free_bytes);
    if (plan.any()) msm_pass_terms = plan.msm_pass_terms;
    return plan;
  }

  // Free device memory, or what is left of the ledger's device budget when less.
  std::size_t device_free_bytes() const { return available_device_bytes(ledger, device); }

  // Built whole before it is kept: an upload that fails (out of memory) leaves no
  // half-placed key behind.
  const KeyBases& bases_for(const ProvingKey& key) {
    const KeyId id = key_id(key);
    if (const auto it = bases.find(id); it != bases.end()) return *it->second;
    auto placed = std::make_unique<KeyBases>();
    if (key_on_device(key)) {
      placed->a = view_of<ec::G1Curve>(key.a);
      placed->b_g1 = view_of<ec::G1Curve>(key.b_g1);
      placed->l = view_of<ec::G1Curve>(key.l);
      placed->h = view_of<ec::G1Curve>(key.h);
      placed->b_g2 = view_of<ec::G2Curve>(key.b_g2);
    } else {
      placed->residency = plan_residency(key);
      placed->streamed = !placed->residency.all(options.g2_msm_on_device);
      upload_bases(key, *placed);
      if (placed->streamed) placed->pinned = pin_points(key, placed->residency);
    }
    return keep_bases(id, std::move(placed));
  }

  // A streamed key's page-locked copy, when the option asks for it and the host can
  // hold it with an eighth to spare; otherwise (or when page-locking fails) none,
  // and its MSMs convert its own points into staging at every chunk.
  std::unique_ptr<const PinnedKeyPoints> pin_points(const ProvingKey& key, const QueryResidency& resident) {
    const KeyQuerySizes k = KeyQuerySizes::of(key);
    const std::size_t bytes = resident_point_bytes(k, options.g2_msm_on_device) - resident.bytes(k);
    if (!options.pin_streamed_sources || !host_can_pin(bytes)) return nullptr;
    try {
      return std::make_unique<const PinnedKeyPoints>(key, resident, options.g2_msm_on_device, ledger);
    } catch (const CudaError&) {
      cudaGetLastError();  // the refusal, so that no later launch check reports it
      return nullptr;
    }
  }

  // The queries its residency keeps, uploaded; the others' views stay empty.
  void upload_bases(const ProvingKey& key, KeyBases& placed) {
    const QueryResidency& r = placed.residency;
    const std::pair<const groth16::PointArray<ec::Affine<ec::G1Curve>>*, bool> g1[] = {
        {&key.a, r.a}, {&key.b_g1, r.b_g1}, {&key.l, r.l}, {&key.h, r.h}};
    DeviceBasesView<ec::G1Curve>* views[] = {&placed.a, &placed.b_g1, &placed.l, &placed.h};
    for (std::size_t q = 0; q < 4; ++q) {
      if (!g1[q].second) continue;
      *views[q] = placed.uploaded_g1.emplace_back(g1[q].first->span(), staging, stream, ledger);
    }
    if (options.g2_msm_on_device && r.b_g2) {
      placed.uploaded_g2 = DeviceG2Bases(key.b_g2.span(), staging, stream, ledger);
      placed.b_g2 = placed.uploaded_g2;
    }
  }

  const KeyBases& keep_bases(const KeyId& id, std::unique_ptr<KeyBases> placed) {
    {
      std::lock_guard lock(on_device_mutex);
      if (placed->streamed) {
        on_device.erase(id);
      } else {
        on_device.insert(id);
      }
    }
    auto& slot = bases[id];
    slot = std::move(placed);
    return *slot;
  }

  // After a start() ran out of device memory: frees what a later start() can make
  // again — the working buffers, the NTT tables, the evaluator, the points of every
  // other key that were uploaded from its host copy (placed again at that key's next
  // start()) — and halves the MSM passes. Keys set up on this device keep their
  // points: they have no other copy.
  void free_caches(const ProvingKey& keep) {
    sync();
    overlap_refused = true;
    work = std::make_unique<Working>(ledger);
    release_evaluator();
    msm_pass_terms = std::max(kMinMsmPassTerms, msm_pass_terms / 2);
    const KeyId kept = key_id(keep);
    std::vector<KeyId> uploaded;
    for (const auto& [id, placed] : bases) {
      if (id != kept && placed->uploaded()) uploaded.push_back(id);
    }
    for (const KeyId& id : uploaded) forget_placement(id);
  }

  // After a start() ran out of memory with its caches freed, one thing more is
  // streamed from then on: a resident evaluator first (until release()), then the
  // key's points, if they were uploaded from its host copy. False when there is
  // nothing to give up.
  bool stream_instead(const ProvingKey& key) {
    if (evaluator && !evaluator->streamed()) {
      sync();
      release_evaluator();
      stream_evaluators = true;
      return true;
    }
    const KeyId id = key_id(key);
    const auto it = bases.find(id);
    if (it == bases.end() || !it->second->uploaded()) return false;
    sync();
    forget_placement(id);
    auto streamed = std::make_unique<KeyBases>();
    streamed->streamed = true;
    streamed->pinned = pin_points(key, streamed->residency);
    keep_bases(id, std::move(streamed));
    return true;
  }

  // The key is placed again at its next start(); points uploaded for it are freed.
  void forget_placement(const KeyId& id) {
    {
      std::lock_guard lock(on_device_mutex);
      on_device.erase(id);
    }
    bases.erase(id);
  }

  // Bytes of this device's memory held by keys set up on it (views, not uploads).
  std::size_t set_up_key_bytes() const {
    std::size_t total = 0;
    for (const auto& [id, placed] : bases) {
      if (placed->streamed || placed->uploaded()) continue;
      total += (placed->a.size() + placed->b_g1.size() + placed->l.size() + placed->h.size()) * sizeof(G1AffineWords) +
               placed->b_g2.size() * sizeof(G2AffineWords);
    }
    return total;
  }

  // Whether the key's queries live on this device (set up here); throws when they
  // live on another one, or only some of them do.
  bool key_on_device(const ProvingKey& key) const {
    const auto& a = key.a.on_device();
    const bool all = a && key.b_g1.on_device() && key.l.on_device() && key.h.on_device() && key.b_g2.on_device();
    if (!all && (a || key.b_g1.on_device() || key.l.on_device() || key.h.on_device() || key.b_g2.on_device())) {
      throw std::invalid_argument("proving key: some queries live on a device and some on the host");
    }
    if (!all) return false;
    if (a->device != device) {
      throw std::invalid_argument("proving key: its points live on device " + std::to_string(a->device) +
                                  ", this prover drives device " + std::to_string(device));
    }
    if (!options.g2_msm_on_device) {
      throw std::invalid_argument("proving key: its B query's G2 points live only on the device, so the G2 MSM "
                                  "must run there (g2_msm_on_device)");
    }
    return true;
  }

  template <class Curve, class Points>
  static DeviceBasesView<Curve> view_of(const Points& points) {
    return {static_cast<const AffineWords<Curve>*>(points.on_device()->words), points.size()};
  }

  // The evaluator on the device, placed when it is not the one there (whose memory
  // is freed first): resident when it fits beside the least a partition of the key
  // needs, otherwise streamed from host memory at every partition.
  DeviceEvaluator& evaluator_for(const std::shared_ptr<const r1cs::CompiledR1cs>& compiled, const ProvingKey& key) {
    if (evaluator && evaluator_source.lock() == compiled) return *evaluator;
    release_evaluator();
    if (stream_evaluators || !evaluator_fits(*compiled, key)) {
      evaluator = streamed_evaluator(compiled);
    } else {
      evaluator = std::make_unique<DeviceEvaluator>(*compiled, staging, stream, ledger);
    }
    evaluator_source = compiled;
    return *evaluator;
  }

  // Streamed from a page-locked copy of its matrices where the host can hold one, as
  // a key's points are (pin_points); from the evaluator's own memory otherwise.
  std::unique_ptr<DeviceEvaluator> streamed_evaluator(const std::shared_ptr<const r1cs::CompiledR1cs>& compiled) {
    if (options.pin_streamed_sources && host_can_pin(compiled->matrix_bytes())) {
      try {
        return std::make_unique<DeviceEvaluator>(compiled, staging, 0, ledger, true);
      } catch (const CudaError&) {
        cudaGetLastError();
      }
    }
    return std::make_unique<DeviceEvaluator>(compiled, staging, 0, ledger);
  }

  // Whether the host's usable memory holds `bytes` more, page-locked, with an eighth to spare.
  static bool host_can_pin(std::size_t bytes) {
    const std::size_t usable = memory::usable_memory().bytes;
    return usable == 0 || bytes + usable / 8 <= usable;
  }

  bool evaluator_fits(const r1cs::CompiledR1cs& compiled, const ProvingKey& key) const {
    return gpu::evaluator_fits(KeyQuerySizes::of(key), DeviceEvaluator::resident_bytes(compiled),
                               device_free_bytes() + work->bytes());
  }

  void release_evaluator() {
    evaluator.reset();
    evaluator_source.reset();
  }

  const DeviceNtt& ntt_for(const ProvingKey& key) {
    auto& slot = work->ntts[{key.domain_size(), key.h_query}];
    if (!slot) slot = std::make_unique<DeviceNtt>(groth16::h_query_domain(key.h_query, key.domain_size()), ledger,
                                                   kernels.ntt_tile_log);
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

  // A deferred witness's a, b, c (zero-padded to n) from its inputs and compact aux
  // (uploaded into the leased slot before the kernel region) by the evaluator on
  // the device, checked there: a refused witness throws UnsatisfiedConstraint
  // before any further work.
  const DeviceAssignment& evaluate_deferred(DeviceEvaluator& e, WitnessSlots::Lease& slot, std::size_t n,
                                            PendingProof& pending, groth16::Stopwatch& clock) {
    const DeviceAssignment& assignment = slot.ready_on(stream);
    Working& w = *work;
    const std::size_t unsatisfied = e.evaluate(assignment, w.a.data(), w.b.data(), w.c.data(), n, stream);
    pending.timings.push_back({"abc_device", clock.lap()});
    if (unsatisfied < e.num_constraints()) throw groth16::UnsatisfiedConstraint(unsatisfied);
    return assignment;
  }

  // Into `out`: the host values `prefix`, then the aux values (on the device at
  // `aux`) whose density bit is set — the scalar order of groth16::a_query_scalars
  // / b_query_scalars, selected on the device. Returns their count.
  std::size_t query_scalars(const std::vector<Fr>& prefix, const r1cs::DensityBitmap& density, const Fr* aux,
                            std::size_t aux_count, Fr* out) {
    const std::size_t total = prefix.size() + count_selected(density, aux_count);
    staging.upload(out, std::span<const Fr>(prefix), stream);
    work->select.select(aux, aux_count, density, out + prefix.size(), staging, stream);
    return total;
  }

  // Where a partition's full aux and query scalars go. Lean: into b's and c's
  // buffers once the h step is done with them (grown to hold them), so that a
  // partition needs three vectors, not five — 8 GiB less at 2^27. Otherwise into
  // buffers of their own, so that a host witness's aux goes up while the h step
  // runs; a deferred witness's aux is expanded on the device, with nothing to
  // overlap, so it is always lean.
  struct VectorPlan {
    bool lean = true;
    Fr* aux = nullptr;
    Fr* scalars = nullptr;
  };

  VectorPlan plan_vectors(const ProvingKey& key, bool deferred, std::size_t n, std::size_t aux_count) {
    Working& w = *work;
    const std::size_t most_scalars = key.num_inputs() + aux_count;
    VectorPlan plan;
    plan.lean = deferred || !separate_vectors_fit(key, aux_count);
    if (plan.lean) {
      w.aux = DeviceBuffer<Fr>(ledger);
      w.scalars = DeviceBuffer<Fr>(ledger);
      w.a.reserve(n);
      w.b.reserve(std::max(n, aux_count));
      w.c.reserve(std::max(n, most_scalars));
      plan.aux = w.b.data();
      plan.scalars = w.c.data();
    } else {
      w.a.reserve(n);
      w.b.reserve(n);
      w.c.reserve(n);
      w.aux.reserve(aux_count);
      w.scalars.reserve(most_scalars);
      plan.aux = w.aux.data();
      plan.scalars = w.scalars.data();
    }
    return plan;
  }

  // Whether aux and the scalars fit in buffers of their own beside the three
  // vectors and the smallest streamed MSM, in the memory free now and the working
  // buffers already held.
  bool separate_vectors_fit(const ProvingKey& key, std::size_t aux_count) const {
    const std::size_t held = work->bytes();
    const std::size_t available = device_free_bytes() + held;
    const std::size_t own = (aux_count + key.num_inputs() + aux_count) * sizeof(Fr);
    const std::size_t need = gpu::least_device_bytes(KeyQuerySizes::of(key)) + own;
    return need + device_memory_margin(available) <= available;
  }

  // Σ scalars[i]·points[i] for i < n from the resident points, or, when this query
  // is not resident (its view empty), from the host ones in chunks.
  template <class Curve>
  ec::Jacobian<Curve> msm_sum(const KeyBases& key_bases, DeviceBasesView<Curve> resident,
                              const groth16::PointArray<ec::Affine<Curve>>& host, const PinnedPoints<Curve>* pinned,
                              const Fr* device_scalars, std::size_t n) {
    DeviceMsm& msm = work->msm;
    if (n == 0) return ec::Jacobian<Curve>::identity();
    if (key_bases.streamed && resident.data() == nullptr) {
      StreamedMsm<Curve>& sum = streamed<Curve>();
      // Beside H's sum: its share, less the other group's chunk buffers, which stay
      // held (at least 1 byte, so the smallest chunk, rather than no limit).
      const std::size_t other = std::is_same_v<Curve, ec::G1Curve>
                                    ? (work->streamed_g2 ? work->streamed_g2->device_bytes() : 0)
                                    : (work->streamed_g1 ? work->streamed_g1->device_bytes() : 0);
      sum.limit_device_bytes(beside_h_bytes == 0 ? 0 : std::max(beside_h_bytes, other + 1) - other);
      const ec::Jacobian<Curve> out = pinned != nullptr ? sum.sum(msm, *pinned, device_scalars, n, stream)
                                                        : sum.sum(msm, host.span(), device_scalars, n, stream);
      streamed_totals.bytes += sum.last_sent_bytes();
      streamed_totals.zero_terms += sum.last_zero_terms();
      ++streamed_totals.sums;
      return out;
    }
    // Passes of at most msm_pass_terms (see the option), one sum in parts.
    msm.begin_parts<Curve>();
    for (std::size_t first = 0; first < n; first += msm_pass_terms) {
      const std::size_t len = std::min(msm_pass_terms, n - first);
      msm.add_part(DeviceBasesView<Curve>(resident.data() + first, len), device_scalars + first, len, stream);
    }
    return msm.end_parts<Curve>(stream);
  }

  // The smallest chunks, in points, that H's sum beside the others' and theirs must
  // have room for (theirs: a G1 and a G2 chunk, both held): smaller ones would cost
  // more in per-chunk work than the overlap saves. The others' can be smaller: their
  // sums are bound by the link, whose time per chunk covers that work.
  static constexpr std::size_t kLeastAsideChunk = std::size_t{1} << 20;
  static constexpr std::size_t kLeastBesideG1Chunk = std::size_t{1} << 19;
  static constexpr std::size_t kLeastBesideG2Chunk = std::size_t{1} << 18;

  // H's sum beside the others' (started by sum_h_aside), and what it sent.
  struct AsideSum {
    ec::Jacobian<ec::G1Curve> sum;
    double seconds = 0;
    std::size_t sent_bytes = 0;
    std::size_t zero_terms = 0;
  };

  // Whether H's sum may run beside L, A and B's: it streams, and so does one of them.
  bool may_sum_h_aside(const KeyBases& key_bases) const {
    const QueryResidency& r = key_bases.residency;
    return options.overlap_streamed_sums && !overlap_refused && key_bases.streamed && !r.h &&
           (!r.l || !r.a || !r.b_g1 || (options.g2_msm_on_device && !r.b_g2));
  }

  // The device memory the streamed sums may hold between them: what is free (or left
  // of the budget) and what their chunk buffers and scratch hold already, less a margin.
  std::size_t streamed_sums_pool() const {
    const std::size_t held = work->streamed_bytes() + work->msm.device_bytes() + work->msm_h.device_bytes();
    const std::size_t available = device_free_bytes() + held;
    const std::size_t margin = device_memory_margin(available);
    return available > margin ? available - margin : 0;
  }

  // H's streamed sum started on a host thread and h_stream, to run while L, A and B's
  // sums run on `stream`, when may_sum_h_aside and the device's memory holds the
  // least chunks of both sides: the others take two fifths of the pool, or their
  // least if more (beside_h_bytes), H the rest (its window widens with its chunk).
  // Otherwise nothing is started (the future is not valid) and each sum sizes its
  // chunks alone. Called with the h step done: the scalars are ready when the thread starts.
  std::future<AsideSum> sum_h_aside(const KeyBases& key_bases, const ProvingKey& key,
                                    const PinnedG1Points* pinned, const Fr* scalars) {
    beside_h_bytes = 0;
    if (!may_sum_h_aside(key_bases)) return {};
    if (!work->streamed_h) work->streamed_h = std::make_unique<StreamedG1Msm>(ledger, options.stream_chunk_points);
    StreamedG1Msm& sum = *work->streamed_h;
    if (options.stream_chunk_points == 0) {
      const std::size_t pool = streamed_sums_pool();
      const std::size_t least_beside =
          StreamedG1Msm::device_bytes_for(kLeastBesideG1Chunk) +
          (options.g2_msm_on_device ? StreamedG2Msm::device_bytes_for(kLeastBesideG2Chunk) : 0);
      const std::size_t beside = std::max(pool / 5 * 2, least_beside);
      if (pool < beside + StreamedG1Msm::device_bytes_for(kLeastAsideChunk)) return {};
      sum.limit_device_bytes(pool - beside);
      beside_h_bytes = beside;
    }
    DeviceMsm& msm = work->msm_h;
    const std::span<const ec::Affine<ec::G1Curve>> host = key.h.span();
    const std::size_t n = key.h.size();
    return std::async(std::launch::async, [this, &sum, &msm, pinned, host, scalars, n] {
      check(cudaSetDevice(device), "cudaSetDevice");
      groth16::Stopwatch clock;
      AsideSum out;
      out.sum = pinned != nullptr ? sum.sum(msm, *pinned, scalars, n, h_stream)
                                  : sum.sum(msm, host, scalars, n, h_stream);
      out.seconds = clock.lap();
      out.sent_bytes = sum.last_sent_bytes();
      out.zero_terms = sum.last_zero_terms();
      return out;
    });
  }

  template <class Curve>
  StreamedMsm<Curve>& streamed() {
    auto& slot = [&]() -> std::unique_ptr<StreamedMsm<Curve>>& {
      if constexpr (std::is_same_v<Curve, ec::G1Curve>) {
        return work->streamed_g1;
      } else {
        return work->streamed_g2;
      }
    }();
    if (!slot) slot = std::make_unique<StreamedMsm<Curve>>(ledger, options.stream_chunk_points);
    return *slot;
  }

  void sync() { check(cudaStreamSynchronize(stream), "prover stream"); }
};

CudaProver::CudaProver(int device, CudaProverOptions options) {
  if (options.max_msm_pass_terms == 0) throw std::invalid_argument("CudaProver: max_msm_pass_terms must be positive");
  state_ = std::make_unique<State>(device, options);
}

CudaProver::~CudaProver() = default;

groth16::ProverBackend::MaterializedBytes CudaProver::host_bytes_to_materialize(std::size_t /*domain_size*/,
                                                                               std::size_t aux) const {
  return {0, state_->options.g2_msm_on_device ? 0 : sizeof(Fr) * aux};
}

std::unique_ptr<PendingProof> CudaProver::start(PartitionWitness w, const ProvingKey& key, const Blinding& blinding) {
  State& s = *state_;
  if (const std::size_t limit = s.ledger.device_limit(s.device); limit != 0) {
    if (const auto why = budget_shortfall(key, limit, w.is_deferred() ? w.evaluator.get() : nullptr)) {
      throw groth16::DeviceOutOfMemory("CUDA device " + std::to_string(s.device) + ": " + *why);
    }
  }
  // Out of device memory is this partition's problem, not the device's: the prover
  // frees what it can make again and tries again, then streams the key's points if
  // they were uploaded, and only then refuses the partition (the device stays in
  // service for partitions that fit).
  for (int attempt = 0;; ++attempt) {
    try {
      return start_on_device(w, key, blinding);
    } catch (const CudaError& e) {
      if (e.code() != cudaErrorMemoryAllocation) {
        throw groth16::DeviceFailure("CUDA device " + std::to_string(s.device) + ": " + e.what());
      }
      cudaGetLastError();  // the failed allocation's error, so that no later launch check reports it
      try {
        std::lock_guard kernel_region(s.mutex);
        if (attempt == 0) {
          s.free_caches(key);
          continue;
        }
        if (s.stream_instead(key)) continue;
        // Placed under this shortage, the key would stay streamed: its next start()
        // places it again.
        s.forget_placement(key_id(key));
        throw groth16::DeviceOutOfMemory(out_of_memory_message(key, e.what()));
      } catch (const CudaError& again) {
        throw groth16::DeviceFailure("CUDA device " + std::to_string(s.device) + ": " + again.what());
      }
    }
  }
}

std::size_t CudaProver::least_device_bytes(const ProvingKey& key, const r1cs::CompiledR1cs* evaluator) {
  const std::size_t least = gpu::least_device_bytes(KeyQuerySizes::of(key));
  return evaluator != nullptr ? least + DeviceEvaluator::streamed_bytes(*evaluator) : least;
}

std::optional<std::string> CudaProver::budget_shortfall(const ProvingKey& key, std::size_t budget,
                                                        const r1cs::CompiledR1cs* evaluator) {
  const std::size_t least = least_device_bytes(key, evaluator);
  if (budget >= least) return std::nullopt;
  return "the device-memory budget, " + gib(budget) + ", is below the least a partition of this key (domain " +
         std::to_string(key.domain_size()) + ") needs on the device, " + gib(least) + ", with its points" +
         (evaluator != nullptr ? " and its evaluator's matrices" : "") + " streamed from host memory";
}

std::string CudaProver::out_of_memory_message(const ProvingKey& key, const std::string& what) const {
  const State& s = *state_;
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  return "CUDA device " + std::to_string(s.device) + " has too little memory for this partition (domain " +
         std::to_string(key.domain_size()) + ", " + std::to_string(key.num_aux()) + " aux; " + what + "): " +
         gib(free_bytes) + " free of " + gib(total_bytes) + " with the prover's caches freed, " +
         gib(s.set_up_key_bytes()) + " held by keys set up on this device, which stay there; prove it with its key on "
         "the host (streamed), or on a device with more memory";
}

std::unique_ptr<PendingProof> CudaProver::start_on_device(PartitionWitness& w, const ProvingKey& key,
                                                          const Blinding& blinding) {
  groth16::Stopwatch clock;
  // A deferred witness (the pce path) is evaluated on the device: its a, b, c and
  // full aux are never made on the host.
  const bool deferred = w.is_deferred();
  // The sizes now; the densities (and, not deferred, a·b = c) on the host's threads
  // during the MSMs.
  if (deferred) {
    check_deferred_sizes(w, key);
  } else {
    groth16::check_witness_sizes(w, key);
  }
  State& s = *state_;
  check(cudaSetDevice(s.device), "cudaSetDevice");
  groth16::Assignment& z = w.assignment;
  auto pending = std::make_unique<CudaPendingProof>(key, blinding);
  clock.lap();

  // Before the kernel region: a deferred witness goes up into a slot of its own on
  // the slot's stream, under another start()'s kernels when the engine's gw > 1.
  std::optional<WitnessSlots::Lease> slot;
  if (deferred) {
    slot.emplace(s.witness_slots.acquire());
    slot->upload(z.inputs, z.compact_aux);
    pending->timings.push_back({"upload_witness", clock.lap()});
  }

  std::unique_lock kernel_region(s.mutex);
  pending->timings.push_back({"kernel_region_wait", clock.lap()});
  // The evaluator before the key's points: resident, it saves a byte of transfer per
  // byte at every partition, the points only their non-zero terms'.
  DeviceEvaluator* evaluator = deferred ? &s.evaluator_for(w.evaluator, key) : nullptr;
  const KeyBases& bases = s.bases_for(key);
  const DeviceNtt& ntt = s.ntt_for(key);
  pending->timings.push_back({"gpu_setup", clock.lap()});

  const std::size_t n = key.domain_size();
  const std::size_t aux_count = deferred ? z.compact_aux.size() : z.aux.size();
  const State::VectorPlan vectors = s.plan_vectors(key, deferred, n, aux_count);
  check(cudaEventRecord(s.region_begin.get(), s.stream), "record the kernel region's start");
  const DeviceAssignment* assignment = nullptr;
  if (deferred) {
    assignment = &s.evaluate_deferred(*evaluator, *slot, n, *pending, clock);
    if (evaluator->streamed()) {
      s.streamed_totals.evaluator_bytes += evaluator->last_sent_bytes();
      ++s.streamed_totals.evaluations;
    }
  } else {
    s.upload_padded(s.work->a, w.a, n);
    s.upload_padded(s.work->b, w.b, n);
    s.upload_padded(s.work->c, w.c, n);
    s.sync();
    pending->timings.push_back({"upload_abc", clock.lap()});
  }

  Working& work = *s.work;
  ntt.h_scalars(work.a.data(), work.b.data(), work.c.data(), key.h_query == groth16::HQuery::kMonomial, s.stream);
  if (deferred) {
    assignment->expand_aux(vectors.aux, s.stream);
    slot->consumed_on(s.stream);
    slot.reset();  // consumed once the stream passes its event: the next start() may refill it
    s.sync();
    pending->timings.push_back({"ntt_h_expand_aux", clock.lap()});
  } else if (vectors.lean) {
    // b's buffer is free once the h step is done.
    s.staging.upload(vectors.aux, std::span<const Fr>(z.aux), s.stream);
    s.sync();
    pending->timings.push_back({"ntt_h_upload_aux", clock.lap()});
  } else {
    // The copy engine takes aux while the multiprocessors run the h step.
    s.staging.upload(vectors.aux, std::span<const Fr>(z.aux), s.copy_stream);
    check(cudaEventRecord(s.aux_uploaded.get(), s.copy_stream), "record aux upload");
    check(cudaStreamWaitEvent(s.stream, s.aux_uploaded.get()), "wait for aux");
    s.sync();
    pending->timings.push_back({"ntt_h_upload_aux", clock.lap()});
  }

  // The witness checks that take a pass over N-sized vectors run on the host's
  // threads while the device runs the MSMs (the uploads above need those threads
  // for staging). A witness that fails them still fails start(), at its end; until
  // then a density mismatch can only make the MSM sums wrong (their lengths are
  // bounded by the bases), and nothing leaves start(). If the device work throws
  // first, the future's destructor waits for the checks, which only read. A
  // deferred witness was checked for a·b = c on the device; when finish() runs the
  // G2 MSM on the host, it needs the full aux there, expanded here meanwhile (the
  // only case where a deferred witness's aux is made on the host; the MSMs below
  // read the count, not z.aux).
  const bool host_aux = deferred && !s.options.g2_msm_on_device;
  std::future<void> checked = std::async(std::launch::async, [&w, &z, &key, deferred, host_aux] {
    groth16::check_witness_densities(z, key);
    if (!deferred) groth16::check_satisfied(w);
    if (host_aux) z.aux = z.compact_aux.expand();
  });

  groth16::G1MsmSums sums;
  const PinnedKeyPoints* pinned = bases.pinned.get();
  std::future<State::AsideSum> h_aside =
      s.sum_h_aside(bases, key, pinned ? pinned_query(pinned->h) : nullptr, work.a.data());
  if (!h_aside.valid()) {
    sums.h = s.msm_sum(bases, bases.h, key.h, pinned ? pinned_query(pinned->h) : nullptr, work.a.data(), key.h.size());
    pending->timings.push_back({"msm_h", clock.lap()});
  }

  sums.l = s.msm_sum(bases, bases.l, key.l, pinned ? pinned_query(pinned->l) : nullptr, vectors.aux, aux_count);
  pending->timings.push_back({"msm_l", clock.lap()});

  const std::size_t a_count = s.query_scalars(z.inputs, z.a_aux_density, vectors.aux, aux_count, vectors.scalars);
  sums.a = s.msm_sum(bases, bases.a, key.a, pinned ? pinned_query(pinned->a) : nullptr, vectors.scalars, a_count);
  pending->timings.push_back({"msm_a", clock.lap()});

  std::vector<Fr> b_inputs;
  for (std::size_t i = 0; i < z.inputs.size(); ++i) {
    if (z.b_input_density.test(i)) b_inputs.push_back(z.inputs[i]);
  }
  const std::size_t b_count = s.query_scalars(b_inputs, z.b_aux_density, vectors.aux, aux_count, vectors.scalars);
  sums.b_g1 =
      s.msm_sum(bases, bases.b_g1, key.b_g1, pinned ? pinned_query(pinned->b_g1) : nullptr, vectors.scalars, b_count);
  pending->timings.push_back({"msm_b_g1", clock.lap()});

  if (s.options.g2_msm_on_device) {
    // The B query's G1 and G2 MSMs share their scalars, still on the device.
    pending->b_g2_sum =
        s.msm_sum(bases, bases.b_g2, key.b_g2, pinned ? pinned_query(pinned->b_g2) : nullptr, vectors.scalars,
                  b_count);
    pending->timings.push_back({"msm_b_g2", clock.lap()});
  }
  if (h_aside.valid()) {
    const State::AsideSum h = h_aside.get();
    sums.h = h.sum;
    s.streamed_totals.bytes += h.sent_bytes;
    s.streamed_totals.zero_terms += h.zero_terms;
    ++s.streamed_totals.sums;
    pending->timings.push_back({"msm_h_beside", h.seconds});
    pending->timings.push_back({"msm_h_wait", clock.lap()});
  }

  check(cudaEventRecord(s.region_end.get(), s.stream), "record the kernel region's end");
  check(cudaEventSynchronize(s.region_end.get()), "wait for the kernel region's end");
  float region_ms = 0;
  check(cudaEventElapsedTime(&region_ms, s.region_begin.get(), s.region_end.get()), "time the kernel region");
  s.device_busy_seconds += 1e-3 * region_ms;
  kernel_region.unlock();

  // After the kernel region: the next start() runs its kernels meanwhile.
  checked.get();
  pending->timings.push_back({"witness_check_wait", clock.lap()});
  pending->blind(sums);
  pending->assignment = std::make_shared<const groth16::Assignment>(std::move(z));
  return pending;
}

Proof CudaProver::finish(std::unique_ptr<PendingProof> pending) {
  const auto& p = dynamic_cast<const CudaPendingProof&>(*pending);
  return p.b_g2_sum ? groth16::assemble(p, *p.b_g2_sum) : groth16::finish_on_cpu(p);
}

void CudaProver::abort(std::unique_ptr<PendingProof> pending) { pending.reset(); }

CudaProver::StreamedTotals CudaProver::streamed_totals() const {
  std::lock_guard lock(state_->mutex);
  return state_->streamed_totals;
}

std::size_t CudaProver::pinned_copy_bytes() const {
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  std::size_t bytes = s.evaluator ? s.evaluator->pinned_bytes() : 0;
  for (const auto& [id, placed] : s.bases) {
    if (placed->pinned) bytes += placed->pinned->bytes();
  }
  return bytes;
}

std::optional<double> CudaProver::device_busy_seconds() const {
  std::lock_guard lock(state_->mutex);
  return state_->device_busy_seconds;
}

const memory::BufferLedger* CudaProver::ledger() const { return &state_->ledger; }

std::optional<std::size_t> CudaProver::device_memory_total() const {
  try {
    return gpu::device_memory_total(state_->device);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::size_t> CudaProver::device_memory_used() const {
  try {
    return gpu::device_memory_used(state_->device);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::size_t CudaProver::device_bytes() const {
  const State& s = *state_;
  std::size_t bytes = s.work->bytes() + s.witness_slots.device_bytes();
  if (s.evaluator) bytes += s.evaluator->device_bytes();
  for (const auto& [id, bases] : s.bases) {
    if (bases) bytes += bases->bytes();
  }
  return bytes;
}

BasePlacement CudaProver::base_placement(const ProvingKey& key) const {
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  const auto it = s.bases.find(key_id(key));
  if (it == s.bases.end() || !it->second) return BasePlacement::kNotLoaded;
  const KeyBases& placed = *it->second;
  if (!placed.streamed) return BasePlacement::kResident;
  return placed.residency.any() ? BasePlacement::kPartlyResident : BasePlacement::kStreamed;
}

std::string CudaProver::resident_queries(const ProvingKey& key) const {
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  const auto it = s.bases.find(key_id(key));
  if (it == s.bases.end() || !it->second) return "none";
  const KeyBases& placed = *it->second;
  return placed.streamed ? placed.residency.names() : "all";
}

bool CudaProver::holds_key(const ProvingKey& key) const {
  const State& s = *state_;
  std::lock_guard lock(s.on_device_mutex);
  return s.on_device.contains(key_id(key));
}

std::optional<int> CudaProver::device_ordinal() const { return state_->device; }

std::optional<groth16::ProverBackend::Placement> CudaProver::placement() const {
  const State& s = *state_;
  std::lock_guard lock(state_->mutex);
  Placement out;
  for (const auto& [id, placed] : s.bases) {
    if (placed->streamed) {
      ++out.keys_streamed;
    } else {
      ++out.keys_resident;
    }
  }
  out.evaluator_streamed = s.evaluator != nullptr && s.evaluator->streamed();
  out.streamed_bytes = s.streamed_totals.bytes + s.streamed_totals.evaluator_bytes;
  return out;
}

void CudaProver::prepare(const ProvingKey& key, const std::shared_ptr<const r1cs::CompiledR1cs>& evaluator) {
  State& s = *state_;
  if (const std::size_t limit = s.ledger.device_limit(s.device);
      limit != 0 && budget_shortfall(key, limit, evaluator.get())) {
    return;
  }
  std::lock_guard kernel_region(s.mutex);
  try {
    check(cudaSetDevice(s.device), "cudaSetDevice");
    if (evaluator) s.evaluator_for(evaluator, key);
    s.bases_for(key);
  } catch (const std::exception&) {
    cudaGetLastError();
    s.forget_placement(key_id(key));
    s.release_evaluator();
  }
}

void CudaProver::release(const ProvingKey& key) {
  State& s = *state_;
  std::lock_guard lock(s.mutex);
  s.forget_placement(key_id(key));
  s.release_evaluator();
  s.stream_evaluators = false;
  s.overlap_refused = false;
}

}  // namespace zkpipe::gpu
