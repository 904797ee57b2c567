// The ledger's entry for read-only file mappings (parameter and evaluator files):
// its bytes are the mappings' pages present in the process — what RSS counts of
// them — not their size, so that a key of which a prover has touched a quarter
// shows a quarter. The pages come and go without the program allocating anything
// (first touch; the kernel reclaiming clean file pages under pressure), so the
// charge follows them only when refresh() is called: the engine does it before
// every ledger sample it publishes. Where /proc/self/pagemap cannot be read the
// charge stays at the mappings' full size (the bound, never less than RSS holds).
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

#include "memory/buffer_ledger.hpp"
#include "memory/process_memory.hpp"

namespace zkpipe::memory {

class MappedCharge {
 public:
  MappedCharge(BufferLedger& ledger, Stage stage, std::vector<AddressRange> ranges);
  MappedCharge(const MappedCharge&) = delete;
  MappedCharge& operator=(const MappedCharge&) = delete;

  // Resizes the charge to the pages present now.
  void refresh();
  std::size_t bytes() const;
  // The ranges' total size: what the charge can grow to.
  std::size_t mapped_bytes() const { return mapped_bytes_; }

 private:
  std::size_t present_now() const;

  const std::vector<AddressRange> ranges_;
  const std::size_t mapped_bytes_;
  mutable std::mutex mutex_;
  BufferLedger::Charge charge_;
};

}  // namespace zkpipe::memory
