// CPU backends for the service tests that watch or change what the device is asked
// to do.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/cpu_prover.hpp"

namespace zkpipe::service::testing {

// The CPU backend with one step changed by a test: before_start runs ahead of each
// start(); everything else is the CPU prover's.
class CpuProverWith : public groth16::ProverBackend {
 public:
  std::string name() const override { return cpu_.name(); }
  std::unique_ptr<groth16::PendingProof> start(groth16::PartitionWitness w, const groth16::ProvingKey& key,
                                               const groth16::Blinding& blinding) final {
    before_start(w, key);
    return cpu_.start(std::move(w), key, blinding);
  }
  groth16::Proof finish(std::unique_ptr<groth16::PendingProof> pending) override {
    return cpu_.finish(std::move(pending));
  }
  void abort(std::unique_ptr<groth16::PendingProof> pending) override { cpu_.abort(std::move(pending)); }

 protected:
  virtual void before_start(const groth16::PartitionWitness&, const groth16::ProvingKey&) {}

 private:
  groth16::CpuProver cpu_;
};

// A CPU backend that records the public inputs of every partition it starts, in order.
class RecordsStarts final : public CpuProverWith {
 public:
  std::vector<std::vector<ff::Fr>> started() const {
    std::lock_guard lock(mutex_);
    return started_;
  }

 private:
  void before_start(const groth16::PartitionWitness& w, const groth16::ProvingKey&) override {
    std::lock_guard lock(mutex_);
    const std::vector<ff::Fr>& inputs = w.assignment.inputs;  // ONE first
    started_.emplace_back(inputs.begin() + (inputs.empty() ? 0 : 1), inputs.end());
  }

  mutable std::mutex mutex_;
  std::vector<std::vector<ff::Fr>> started_;
};

}  // namespace zkpipe::service::testing
