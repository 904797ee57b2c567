// The proving engine: proof requests in, assembled and verified proofs out.
//
//   submit → P partition tasks → admission (priority, budget) → synthesis workers (pw)
//     → bounded channel → device workers (gw per device, device mutex) → finalizer pool
//     → dealloc thread (frees, serialized) → assembly in partition order
//     → verification → completion (future and callback)
//
// Memory: under the budget policy a partition reserves its working set
// (PartitionFootprint) before synthesis; a/b/c's bytes are given back at abc_freed,
// the rest at dealloc_done. The ledger is charged in the same parts, always after
// reserving and before giving back, so tracked bytes never exceed the budget.
// start() takes the witness and frees a, b, c by the time it returns (abc_freed);
// the engine then holds the pending proof's assignment until the dealloc thread
// drops it. The footprint's scratch is charged around start() and finish() only for
// a backend that does not allocate its own (ProverBackend::allocates_own_scratch).
// Resident parameters are reserved and charged for as long as they are held; the
// part of them that views a mapped file is charged by its pages present in the
// process, refreshed before every hook's ledger sample (ResidentParameters).
//
// The device mutex covers a device's kernel region. For a backend without one of
// its own (the CPU backend: start() is all "device" work, on every core) the engine
// holds the mutex for the whole of start() (the free of a, b, c at its end included),
// and gw > 1 only overlaps one worker's hand-off to the finalizers with the next
// one's start().
// A backend that locks its own kernel region (ProverBackend::locks_kernel_region:
// the CUDA one) is called by the gw workers without the engine's mutex, so one
// partition's witness upload and host-side checks run under another's kernels.
// Device busy (device_busy_seconds) is the time at least one start() is in progress.
//
// Devices: one backend per device, each with gw workers; a device may be a GPU
// shared with another engine device (two backends on one ordinal, each with its own
// resident keys and pools). Every device worker takes from the one channel the
// partition the rule of engine/device_assignment.hpp gives it: the most urgent
// priority first; within it the oldest, unless another device holds the oldest's
// key (ProverBackend::holds_key) and this one holds a queued partition's, which it
// then takes. A worker never idles while a partition is queued, so one proof's
// partitions spread over every device that is free.
//
// Failure: a partition that throws fails its request with RequestFailed; the
// request's waiting tasks leave the queue, its in-flight partitions are dropped at
// the next stage boundary (abort() on a pending proof), every buffer is freed, and
// other requests go on. cancel() does the same with RequestCancelled.
//
// A backend that throws groth16::DeviceFailure from start() or finish() fails its
// device, not the request: the device is isolated for good (its workers take no more
// partitions), and the partition is freed like any other and goes back to admission,
// to be synthesized again and proved on another device (witnesses are not kept
// across a failure: re-synthesis keeps the ledger and the budget exact). The
// request fails only when no healthy device is left: then every request fails with
// RequestFailed naming each device's failure. device_status() reports each device.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/admission.hpp"
#include "engine/bounded_channel.hpp"
#include "engine/device_activity.hpp"
#include "engine/device_health.hpp"
#include "engine/device_status.hpp"
#include "engine/request.hpp"
#include "engine/work_queue.hpp"
#include "groth16/prover.hpp"
#include "memory/buffer_ledger.hpp"

namespace zkpipe::engine {

enum class PermitPolicy : std::uint8_t {
  early,       // synthesis slot released at synth_done, before the channel send; no bytes reserved
  after_send,  // slot released once the channel accepts the partition; no bytes reserved
  budget,      // after_send, and the working set's bytes are reserved until freed
};

std::string_view policy_name(PermitPolicy policy);
std::optional<PermitPolicy> parse_policy(std::string_view text);

enum class ShutdownMode : std::uint8_t { drain, cancel };

// Each worker is a thread: far above any useful count, far below what the system
// refuses to create (a failed thread creation would end the process).
inline constexpr std::size_t kMaxWorkers = 1024;
inline constexpr std::size_t kMaxChannelCapacity = std::size_t{1} << 16;
// Engine devices (backends): above any host's GPUs, each listed twice.
inline constexpr std::size_t kMaxDevices = 64;

// The constructor throws std::invalid_argument for a worker count of 0 or above
// kMaxWorkers, a channel capacity above kMaxChannelCapacity, or more than
// kMaxDevices devices.
struct EngineConfig {
  std::size_t synthesis_workers = 2;   // pw
  std::size_t workers_per_device = 1;  // gw
  std::size_t finalizers = 1;
  std::size_t channel_capacity = 1;
  std::size_t budget_bytes = 0;  // 0: what the process may take (memory::usable_memory)
  PermitPolicy policy = PermitPolicy::budget;
  // null: BufferLedger::process(). A backend's own buffers (ProverBackend::ledger)
  // must charge this one too.
  BufferLedger* ledger = nullptr;
  bool start_paused = false;       // admit nothing until resume()
};

struct HookEvent {
  Hook hook;
  std::uint64_t request;
  std::size_t partition;
  std::size_t partitions;
  double time;  // seconds since the engine started
  std::size_t rss;
  // The process's runtime memory (code pages, malloc's small-block heap):
  // memory::RuntimeMemory::now().total(), measured at the hook, and the pages of the
  // engine's own threads' stacks present then (thread_stack_bytes).
  std::size_t runtime;
  const LedgerSnapshot& ledger;
};

// Observes the engine. Calls are serialized (one at a time, in event order), from
// the engine's threads; they should be quick and must not call into the engine
// (cancel, submit, shutdown), which would deadlock on the serializing lock.
class EngineListener {
 public:
  virtual ~EngineListener() = default;
  virtual void on_hook(const HookEvent&) {}
  virtual void on_partition_retired(const PartitionTimeline&) {}
};

class Engine;

class ProofTicket {
 public:
  std::uint64_t id() const { return id_; }
  const std::shared_future<ProofResult>& result() const { return result_; }
  ProofResult get() const { return result_.get(); }
  void cancel() const;

 private:
  friend class Engine;
  ProofTicket(Engine* engine, std::uint64_t id, std::shared_future<ProofResult> result)
      : engine_(engine), id_(id), result_(std::move(result)) {}

  Engine* engine_;
  std::uint64_t id_;
  std::shared_future<ProofResult> result_;
};

class Engine {
 public:
  // One backend per device.
  Engine(const EngineConfig& config, std::vector<std::shared_ptr<groth16::ProverBackend>> devices);
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;
  // Cancels what is still running (shutdown(cancel)).
  ~Engine();

  // Reserves the bytes of the key (and of the evaluator, when given) from the budget;
  // throws std::runtime_error if they do not fit. companion_bytes: what the caller
  // keeps beside the key for its requests' synthesis (a .zkey's coefficient lists),
  // reserved and charged with it.
  std::shared_ptr<const ResidentParameters> make_resident(std::shared_ptr<const groth16::ProvingKey> key,
                                                          std::shared_ptr<const r1cs::CompiledR1cs> evaluator = nullptr,
                                                          std::size_t companion_bytes = 0);

  // Throws std::invalid_argument for a malformed request or one whose partition can
  // never fit in the budget, std::logic_error after shutdown.
  ProofTicket submit(ProofRequest request);
  // No effect on a request that already completed.
  void cancel(std::uint64_t request);

  void pause();
  void resume();
  // Stops accepting requests; drains (finishes) or cancels the rest; joins the threads.
  void shutdown(ShutdownMode mode);

  void add_listener(std::shared_ptr<EngineListener> listener);

  const EngineConfig& config() const { return config_; }
  BufferLedger& ledger() { return ledger_; }
  std::size_t budget_bytes() const { return admission_->capacity(); }
  std::size_t devices() const { return backends_.size(); }
  // Per device, the seconds during which at least one start() was in progress.
  std::vector<double> device_busy_seconds() const;
  // Per device: backend, health, busy time, partitions, device memory.
  std::vector<DeviceStatus> device_status() const;
  // Seconds since the engine started (the time base of hooks and timelines).
  double now() const;
  // Resizes the charges of resident parameters that view mapped files to their pages
  // present now (a read of /proc/self/pagemap over them). The hooks do it, when the
  // engine has listeners, as refresh_mapped_charges_if_due says.
  void refresh_mapped_charges();

 private:
  struct Request;
  struct Partition;
  using PartitionPtr = std::unique_ptr<Partition>;

  void synthesis_loop();
  void device_loop(std::size_t device);
  void finalize_loop();
  void dealloc_loop();
  void completion_loop();

  void synthesize(Partition& p);
  void start_on_device(Partition& p, std::size_t device);
  void finish(Partition& p);
  // Which queued partition device `device`'s worker takes (nullopt: none, it waits).
  std::optional<std::size_t> choose_for(std::size_t device, const BoundedChannel<PartitionPtr>::View& queued) const;
  bool any_device_healthy() const;
  // The device failed under p in `step` (a DeviceFailure in flight): it is isolated,
  // and p goes back to admission once freed, or its request fails if no device is left.
  void device_failed(Partition& p, std::string_view step);
  std::exception_ptr no_device_left(const Partition& p) const;
  void requeue(PartitionPtr p);
  void retire(PartitionPtr p);
  void abort(const std::shared_ptr<Request>& request, std::exception_ptr error);
  void complete(const std::shared_ptr<Request>& request);
  std::shared_ptr<Request> find(std::uint64_t id) const;
  void hook(Hook h, Partition& p);
  // refresh_mapped_charges from hook `h`, outside the listeners' lock, one thread at a
  // time (another finding a scan under way goes on without it), at most once per
  // kMappedRefreshInterval and at most a tenth of the time: the scan reads the
  // pagemap over every mapped page, about 14 ms per 4 GiB present, so a resident 32 GiB
  // PoRep key and its evaluator take some 200 ms, during which no pipeline thread
  // may wait. A scan longer than kCheapMappedRefresh is left to the dealloc worker's
  // hook, the one thread off the proofs' path.
  void refresh_mapped_charges_if_due(Hook h);
  // The pages of the engine's threads' stacks present in the process now.
  std::size_t thread_stack_bytes() const;

  BufferLedger::Charge charge_scratch(const Partition& p);

  const EngineConfig config_;
  BufferLedger& ledger_;
  std::vector<std::shared_ptr<groth16::ProverBackend>> backends_;
  const std::chrono::steady_clock::time_point epoch_;

  std::shared_ptr<Admission> admission_;
  BoundedChannel<PartitionPtr> channel_;
  WorkQueue<PartitionPtr> finalize_queue_;
  WorkQueue<PartitionPtr> dealloc_queue_;
  WorkQueue<std::shared_ptr<Request>> completion_queue_;

  std::vector<std::unique_ptr<std::mutex>> device_mutex_;
  std::vector<std::unique_ptr<DeviceActivity>> device_activity_;
  std::vector<std::unique_ptr<DeviceHealth>> device_health_;

  mutable std::mutex requests_mutex_;
  std::condition_variable requests_done_;
  std::map<std::uint64_t, std::shared_ptr<Request>> active_;
  std::uint64_t next_id_ = 1;
  bool accepting_ = true;

  static constexpr std::chrono::milliseconds kMappedRefreshInterval{50};
  static constexpr std::chrono::milliseconds kCheapMappedRefresh{5};
  mutable std::mutex mapped_charges_mutex_;
  std::vector<std::weak_ptr<memory::MappedCharge>> mapped_charges_;
  std::chrono::steady_clock::time_point mapped_refreshed_{};
  // refresh_mapped_charges_if_due's state, under mapped_charges_mutex_.
  bool mapped_refreshing_ = false;
  std::chrono::steady_clock::duration mapped_refresh_took_{};

  std::mutex listeners_mutex_;
  std::vector<std::shared_ptr<EngineListener>> listeners_;

  std::vector<std::thread> threads_;
  // Their stacks (set once, after the threads start; read under listeners_mutex_).
  std::vector<memory::AddressRange> thread_stacks_;
};

}  // namespace zkpipe::engine
