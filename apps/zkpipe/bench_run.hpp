// The engine benchmark behind `zkpipe bench`: prepares a workload (a PoRep-like
// preset and its parameters, set up once and cached), runs a batch of
// multi-partition proofs through the engine, and reports what the issue asks for:
// s/proof, per-stage times, device busy, peak RSS, the ledger's peaks, untracked.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "backend.hpp"
#include "engine/engine.hpp"
#include "engine/run_recorder.hpp"
#include "groth16/footprint.hpp"
#include "groth16/keys.hpp"
#include "memory/process_memory.hpp"
#include "workloads.hpp"

namespace zkpipe::cli {

// A deadline-bound proof (a Window PoSt) submitted at critical priority while the
// batch (PoRep C2) holds the device (--critical-circuit): its latency there against
// its latency alone and one batch partition's time on the device.
struct CriticalProof {
  WorkloadSpec workload{.circuit = "", .preset = ""};  // circuit empty: none
  std::size_t after = 1;  // submitted once this many of the batch's proofs have completed
};

struct BenchOptions {
  WorkloadSpec workload;
  CriticalProof critical;
  std::size_t count = 4;        // proofs
  std::size_t concurrency = 2;  // proofs in flight
  engine::EngineConfig engine;
  BackendOptions backend;
  std::string budget = "auto";
  std::string synthesis = "pce";
  std::string key_path;                 // empty: <params_dir>/<circuit>-<preset>.zkpk, set up if missing
  std::string params_dir = "out/params";
  bool setup_on_device = false;  // --backend cuda: set up on the device, keep the key there, write nothing
  bool verify = true;
  bool quiet = false;
  std::string trace_path;
  std::string plot_path;
  std::string log_level = "info";
  std::string buffers_log_level = "debug";
  double buffers_log_interval = 0;
  // Fail the batch when untracked memory exceeds kMaxUntrackedShare of RSS at any sample.
  bool strict_memory = false;
};

// The target for memory the ledger does not see: at most this share of RSS.
inline constexpr double kMaxUntrackedShare = 0.05;

struct PreparedWorkload {
  std::shared_ptr<const groth16::ProvingKey> key;
  groth16::CircuitShape shape;
  groth16::PartitionFootprint footprint;  // its scratch 0 when the backend charges its own
  std::shared_ptr<const r1cs::CompiledR1cs> evaluator;  // null for --synthesis assignment
  std::string key_path;
  // --critical-circuit's key and evaluator (null without it).
  std::shared_ptr<const groth16::ProvingKey> critical_key;
  std::shared_ptr<const r1cs::CompiledR1cs> critical_evaluator;
  memory::MemoryBaseline baseline;  // before the parameters were loaded
  // One backend per engine device for every run of a command, so that a CUDA
  // backend's resident bases are uploaded once, not by the first proof of each run.
  std::vector<std::shared_ptr<groth16::ProverBackend>> backends;
};

struct CriticalReport {
  double latency = 0;           // submission to its proof, with the batch running
  double queued = 0;            // of which its partitions waited for the device (the longest)
  double alone = 0;             // the same proof's latency with nothing else running
  double batch_on_device = 0;   // a batch partition's time on the device, the mean
  double batch_on_device_max = 0;
  bool verified = false;        // both of its proofs
};

struct BenchReport {
  engine::PermitPolicy policy = engine::PermitPolicy::budget;
  std::size_t pw = 0;
  std::size_t gw = 0;
  std::size_t budget = 0;
  std::size_t proofs = 0;
  std::size_t verified = 0;
  double wall_seconds = 0;
  double seconds_per_proof = 0;
  std::vector<std::pair<std::string, engine::StageStats>> stages;  // per-partition stages, then proof latency
  // The steps of the backends' start() (where a partition's time on the device goes), in
  // the order they run, over the partitions.
  std::vector<std::pair<std::string, engine::StageStats>> start_steps;
  // Fraction of the wall time a start() was in progress, the mean over the devices.
  double device_busy = 0;
  std::optional<double> device_busy_measured;  // the same as the devices measure it (CUDA backend)
  std::vector<engine::DeviceStatus> devices;   // at the end of the batch
  std::size_t peak_rss = 0;
  memory::MemoryBaseline baseline;
  memory::LedgerSnapshot ledger;  // peaks of this run
  // The runtime (code pages, malloc's heap) over the samples, and its largest growth
  // above the baseline's: the overhead the budget does not cover.
  std::size_t runtime_max = 0;
  double runtime_growth_max = 0;
  // What the budget promises for the process: peak RSS <= baseline + budget + the
  // runtime's largest growth (the budget holds the tracked bytes only).
  double budget_bound = 0;
  double untracked_max = 0;
  double untracked_final = 0;
  // The largest untracked / RSS over the samples (one per lifecycle hook).
  double untracked_share_max = 0;
  // The sample where that share peaked: where to look when it is too high.
  std::optional<engine::LedgerSample> untracked_share_peak;
  std::size_t samples = 0;
  std::optional<std::size_t> device_used;  // the driver's figure at the end of the batch
  formats::DeviceMemoryBudget device_memory;  // --device-memory
  std::optional<CriticalReport> critical;
};

PreparedWorkload prepare_workload(const BenchOptions& options);
BenchReport run_batch(const BenchOptions& options, const PreparedWorkload& workload);
void print_summary(std::ostream& out, const BenchOptions& options, const PreparedWorkload& workload,
                   const BenchReport& report);

}  // namespace zkpipe::cli
