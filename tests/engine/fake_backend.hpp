// A prover backend and synthesizer that only sleep and allocate, so that the
// engine's timing and memory properties can be tested deterministically: start()
// and finish() take fixed durations, their scratch is a TrackedBuffer of the
// footprint's scratch size (it allocates its own scratch, as the CUDA backend does),
// and any partition can be made to fail in synthesis, start or finish — as a bad
// witness (the request fails) or as a failing device (groth16::DeviceFailure). Its
// proof carries the partition's tag (proof_tag), so that tests can tell which proof
// is whose; it can claim to hold keys on its device (holds_key), hold every start()
// at a gate or keep the device busy until a condition of the test's holds
// (while_running), and logs the partitions it started.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "groth16/footprint.hpp"
#include "groth16/prover.hpp"
#include "memory/tracked_buffer.hpp"

namespace zkpipe::engine::testing {

using std::chrono::milliseconds;

// A partition's identity, written into its witness so the backend can tell them apart.
inline std::uint64_t tag_of(std::uint64_t request_tag, std::size_t partition) {
  return request_tag * 1000 + partition;
}

struct FakeShape {
  std::size_t domain = 1 << 12;  // elements in each of a, b, c
  std::size_t aux = 1 << 10;
  std::size_t scratch = 1 << 16;  // bytes

  groth16::PartitionFootprint footprint() const {
    groth16::PartitionFootprint f;
    f.abc = 3 * sizeof(ff::Fr) * domain;
    f.assignment = sizeof(ff::Fr) * (1 + aux);
    f.density = 8 * (2 * ((aux + 63) / 64) + 1);
    f.scratch = scratch;
    return f;
  }
};

inline groth16::PartitionWitness fake_witness(const FakeShape& shape, std::uint64_t tag) {
  groth16::PartitionWitness w;
  w.a.assign(shape.domain, ff::Fr::zero());
  w.b.assign(shape.domain, ff::Fr::zero());
  w.c.assign(shape.domain, ff::Fr::zero());
  groth16::Assignment& z = w.assignment;
  z.inputs.assign(1, ff::Fr::one());
  z.aux.assign(shape.aux, ff::Fr::zero());
  z.aux[0] = ff::Fr::from_u64(tag);
  z.a_aux_density.resize(shape.aux);
  z.b_input_density.resize(1);
  z.b_aux_density.resize(shape.aux);
  return w;
}

// Synthesizer for one request: sleeps, then builds the witness (or throws).
inline std::function<groth16::PartitionWitness(std::size_t)> fake_synthesizer(
    FakeShape shape, milliseconds duration, std::uint64_t request_tag,
    std::function<bool(std::size_t)> fail = {}) {
  return [=](std::size_t partition) {
    std::this_thread::sleep_for(duration);
    if (fail && fail(partition)) throw std::runtime_error("injected synthesis failure");
    return fake_witness(shape, tag_of(request_tag, partition));
  };
}

// The tag a FakeBackend's proof carries.
inline std::uint64_t proof_tag(const groth16::Proof& proof) { return proof.a.x.to_canonical()[0]; }

class FakeBackend final : public groth16::ProverBackend {
 public:
  struct Started {
    std::uint64_t tag;
    const groth16::ProvingKey* key;
  };

  struct Options {
    milliseconds start{10};
    milliseconds finish{2};
    std::size_t scratch = 1 << 16;
    std::function<bool(std::uint64_t tag)> fail_start = {};
    std::function<bool(std::uint64_t tag)> fail_finish = {};
    // The device fails (DeviceFailure) in start() / finish() of these partitions.
    std::function<bool(std::uint64_t tag)> device_fails_at_start = {};
    std::function<bool(std::uint64_t tag)> device_fails_at_finish = {};
    // start() of these partitions runs out of device memory (DeviceOutOfMemory).
    std::function<bool(std::uint64_t tag)> out_of_memory_at_start = {};
    // Keys it claims to hold on its device.
    std::set<const groth16::ProvingKey*> holds = {};
    // When valid, every start() waits for it (after logging the partition).
    std::shared_future<void> gate = {};
    // Called in every start(), with the partition's tag, once it counts as running
    // (peak_concurrent_starts) and before its fixed duration: the device stays busy
    // for as long as it takes, so a test can hold it until what it checks has
    // happened (or failed to happen by a deadline).
    std::function<void(std::uint64_t tag)> while_running = {};
    // Whether start() may run on several threads at once (the engine then holds no
    // device lock around it), like the CUDA backend.
    bool locks_kernel_region = false;
  };

  FakeBackend(BufferLedger& ledger, Options options) : ledger_(ledger), options_(std::move(options)) {}

  std::string name() const override { return "fake"; }
  const memory::BufferLedger* ledger() const override { return &ledger_; }
  bool locks_kernel_region() const override { return options_.locks_kernel_region; }
  bool allocates_own_scratch() const override { return true; }
  bool holds_key(const groth16::ProvingKey& key) const override { return options_.holds.contains(&key); }

  std::unique_ptr<groth16::PendingProof> start(groth16::PartitionWitness w, const groth16::ProvingKey& key,
                                               const groth16::Blinding&) override {
    const std::uint64_t tag = w.assignment.aux.at(0).to_canonical()[0];
    {
      std::lock_guard lock(log_mutex_);
      log_.push_back({tag, &key});
    }
    if (options_.gate.valid()) options_.gate.wait();
    memory::TrackedBuffer scratch(ledger_, Stage::scratch, options_.scratch);
    scratch.touch();
    const int running = ++running_starts_;
    for (int peak = peak_starts_.load(); running > peak && !peak_starts_.compare_exchange_weak(peak, running);) {
    }
    if (options_.while_running) options_.while_running(tag);
    std::this_thread::sleep_for(options_.start);
    --running_starts_;
    if (options_.fail_start && options_.fail_start(tag)) throw std::runtime_error("injected start failure");
    if (options_.out_of_memory_at_start && options_.out_of_memory_at_start(tag)) {
      throw groth16::DeviceOutOfMemory("injected: too little device memory for this partition");
    }
    if (options_.device_fails_at_start && options_.device_fails_at_start(tag)) {
      throw groth16::DeviceFailure("injected device failure in start");
    }
    ++started_;
    auto pending = std::make_unique<Pending>();
    pending->tag = tag;
    pending->assignment = std::make_shared<const groth16::Assignment>(std::move(w.assignment));
    return pending;
  }

  groth16::Proof finish(std::unique_ptr<groth16::PendingProof> base) override {
    const auto& pending = dynamic_cast<const Pending&>(*base);
    {
      std::lock_guard lock(finished_mutex_);
      last_finished_assignment_ = pending.assignment;
    }
    memory::TrackedBuffer scratch(ledger_, Stage::scratch, options_.scratch);
    scratch.touch();
    std::this_thread::sleep_for(options_.finish);
    if (options_.fail_finish && options_.fail_finish(pending.tag)) {
      throw std::runtime_error("injected finish failure");
    }
    if (options_.device_fails_at_finish && options_.device_fails_at_finish(pending.tag)) {
      throw groth16::DeviceFailure("injected device failure in finish");
    }
    ++finished_;
    groth16::Proof proof;
    proof.a = groth16::G1Affine::from_xy(ff::Fp::from_u64(pending.tag), ff::Fp::zero());
    return proof;
  }

  void abort(std::unique_ptr<groth16::PendingProof> pending) override {
    pending.reset();
    ++aborted_;
  }

  void prepare(const groth16::ProvingKey& key,
               const std::shared_ptr<const r1cs::CompiledR1cs>& evaluator) override {
    std::lock_guard lock(log_mutex_);
    prepared_.push_back({&key, evaluator.get()});
  }

  int started() const { return started_; }
  int finished() const { return finished_; }
  int aborted() const { return aborted_; }
  // The most start() calls that ran at once.
  int peak_concurrent_starts() const { return peak_starts_; }
  // The assignment of the pending proof finish() last took, without owning it.
  std::weak_ptr<const groth16::Assignment> last_finished_assignment() const {
    std::lock_guard lock(finished_mutex_);
    return last_finished_assignment_;
  }
  // The keys (and evaluators) prepare() was called with, in order.
  std::vector<std::pair<const groth16::ProvingKey*, const r1cs::CompiledR1cs*>> prepared() const {
    std::lock_guard lock(log_mutex_);
    return prepared_;
  }
  // The partitions start() was called with, in order.
  std::vector<Started> started_log() const {
    std::lock_guard lock(log_mutex_);
    return log_;
  }

 private:
  std::atomic<int> running_starts_ = 0;
  std::atomic<int> peak_starts_ = 0;

  struct Pending final : groth16::PendingProof {
    std::uint64_t tag = 0;
  };

  BufferLedger& ledger_;
  Options options_;
  mutable std::mutex log_mutex_;
  std::vector<Started> log_;
  std::vector<std::pair<const groth16::ProvingKey*, const r1cs::CompiledR1cs*>> prepared_;
  std::atomic<int> started_{0};
  std::atomic<int> finished_{0};
  std::atomic<int> aborted_{0};
  mutable std::mutex finished_mutex_;
  std::weak_ptr<const groth16::Assignment> last_finished_assignment_;
};

}  // namespace zkpipe::engine::testing
