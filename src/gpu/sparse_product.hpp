// The pre-compiled constraint evaluator on the device: a deferred witness (the pce
// path) goes up as its inputs and compact aux values, ~2 bits per aux value, and
// a, b, c = A·z, B·z, C·z and the full aux are made where the prover reads them.
// A 2^27-constraint partition then crosses the link as ~40 MiB instead of 16 GiB
// (a, b, c and aux in full), and the host never holds those vectors.
//
// The product is r1cs::evaluate_abc's, term for term: small coefficients of 0/1
// values summed in a 64-bit integer and converted once per row, ±1 times a wide
// value as an addition or subtraction, anything else a Montgomery product; values
// stay fully reduced, so the device's a, b, c equal the host's bit for bit.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "ff/fr.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/staging.hpp"
#include "r1cs/compact_values.hpp"
#include "r1cs/compiled_r1cs.hpp"

namespace zkpipe::gpu {

// A deferred witness's assignment on the device: the inputs in full and the aux
// values in r1cs::CompactValues' layout (wide bitmap, 0/1 bits, rank index, wide
// values). The buffers grow to the largest assignment seen and are reused.
class DeviceAssignment {
 public:
  DeviceAssignment() = default;
  // The buffers charge `ledger`.
  explicit DeviceAssignment(memory::BufferLedger& ledger) : ledger_(&ledger) {}

  // Queued on stream after the host's arrays are staged (they may be freed on return).
  void upload(std::span<const ff::Fr> inputs, const r1cs::CompactValues& aux, PinnedStaging& staging,
              cudaStream_t stream);

  std::size_t num_inputs() const { return num_inputs_; }
  std::size_t num_aux() const { return num_aux_; }

  // The aux values in full into out (device, num_aux() elements), as
  // CompactValues::expand() gives them. Queued on stream.
  void expand_aux(ff::Fr* out, cudaStream_t stream) const;

  const ff::Fr* inputs() const { return inputs_.data(); }
  const std::uint64_t* wide_mask() const { return wide_mask_.data(); }
  const std::uint64_t* bits() const { return bits_.data(); }
  const std::uint32_t* wide_before() const { return wide_before_.data(); }
  const ff::Fr* wide_values() const { return wide_values_.data(); }

  std::size_t device_bytes() const {
    return (inputs_.capacity() + wide_values_.capacity()) * sizeof(ff::Fr) +
           (wide_mask_.capacity() + bits_.capacity()) * sizeof(std::uint64_t) +
           wide_before_.capacity() * sizeof(std::uint32_t);
  }

 private:
  std::size_t num_inputs_ = 0;
  std::size_t num_aux_ = 0;
  memory::BufferLedger* ledger_ = &memory::BufferLedger::process();
  DeviceBuffer<ff::Fr> inputs_{*ledger_};
  DeviceBuffer<std::uint64_t> wide_mask_{*ledger_};
  DeviceBuffer<std::uint64_t> bits_{*ledger_};
  DeviceBuffer<std::uint32_t> wide_before_{*ledger_};
  DeviceBuffer<ff::Fr> wide_values_{*ledger_};
};

// A CompiledR1cs's matrices (CSR: row offsets, 32-bit variables, 32-bit coefficient
// codes) and coefficient table on the device. Resident: the matrices are uploaded
// once per evaluator. Streamed, for a device that cannot hold them beside a
// partition (a 32 GiB PoRep's are 8.7 GiB): they stay in host memory and go up at
// every evaluate() in chunks of rows, each chunk's upload (on a copy stream of the
// evaluator's own) overlapping the previous chunk's product; two chunks' buffers
// live on the device. The buffers charge the ledger as device memory, like a key's
// points. A streamed evaluator may keep a page-locked copy of its matrices, from
// which the copy engine takes each chunk alone at the link's speed; without one,
// host threads stage every chunk at every evaluate().
class DeviceEvaluator {
 public:
  // Rows per streamed chunk are chosen so that a chunk's three matrices take at
  // most chunk_bytes (or one row, where a row alone takes more): by default an
  // eighth of the matrices, at least 1 MiB and at most 128 MiB, so that uploads
  // overlap products and two chunks take a fraction of the resident evaluator.
  static std::size_t default_chunk_bytes(const r1cs::CompiledR1cs& compiled);

  // Resident. Uploads through staging on stream and waits for the copies; the
  // device memory charges `ledger`.
  DeviceEvaluator(const r1cs::CompiledR1cs& compiled, PinnedStaging& staging, cudaStream_t stream,
                  memory::BufferLedger& ledger = memory::BufferLedger::process());
  // Streamed: `compiled` is held (its matrices are read at every evaluate()), the
  // chunks go up through `staging`, which must outlive the evaluator. chunk_bytes 0:
  // default_chunk_bytes. pinned_copy: the matrices are copied once into page-locked
  // memory (charged to `ledger`; the copied pages of a file-mapped evaluator leave
  // the resident set) and the chunks go up from there; throws CudaError when the
  // host cannot page-lock that much.
  DeviceEvaluator(std::shared_ptr<const r1cs::CompiledR1cs> compiled, PinnedStaging& staging,
                  std::size_t chunk_bytes = 0, memory::BufferLedger& ledger = memory::BufferLedger::process(),
                  bool pinned_copy = false);
  ~DeviceEvaluator();
  DeviceEvaluator(const DeviceEvaluator&) = delete;
  DeviceEvaluator& operator=(const DeviceEvaluator&) = delete;

  // Device bytes of the resident evaluator of `compiled`, and of the streamed one.
  static std::size_t resident_bytes(const r1cs::CompiledR1cs& compiled);
  static std::size_t streamed_bytes(const r1cs::CompiledR1cs& compiled, std::size_t chunk_bytes = 0);

  bool streamed() const { return streamed_ != nullptr; }
  // Page-locked host bytes of the copy a streamed evaluator's chunks go up from (0 without one).
  std::size_t pinned_bytes() const;
  // Bytes of matrices the last evaluate() sent over the link (0 when resident).
  std::size_t last_sent_bytes() const { return last_sent_bytes_; }

  std::size_t num_inputs() const { return num_inputs_; }
  std::size_t num_aux() const { return num_aux_; }
  std::size_t num_constraints() const { return num_constraints_; }

  // a, b, c (device, n ≥ num_constraints() elements each; the rows from
  // num_constraints() on are zero) for the assignment z, and the check that
  // a_i·b_i = c_i for every constraint i, in the same pass. Synchronizes with
  // stream; returns the first constraint that fails, or num_constraints() when all
  // hold. Throws std::invalid_argument when z or n does not fit the circuit.
  std::size_t evaluate(const DeviceAssignment& z, ff::Fr* a, ff::Fr* b, ff::Fr* c, std::size_t n,
                       cudaStream_t stream);

  std::size_t device_bytes() const;

 private:
  // One matrix's rows [first_row, first_row + rows) on the device; entries from
  // first_entry on.
  struct Matrix {
    explicit Matrix(memory::BufferLedger& ledger) : row_offsets(ledger), columns(ledger), codes(ledger) {}
    Matrix(const r1cs::CompiledMatrix& m, PinnedStaging& staging, cudaStream_t stream, memory::BufferLedger& ledger);
    std::size_t device_bytes() const;

    DeviceBuffer<std::uint64_t> row_offsets;
    DeviceBuffer<r1cs::Variable> columns;
    DeviceBuffer<std::uint32_t> codes;
  };
  struct Streamed;

  void check_arguments(const DeviceAssignment& z, std::size_t n) const;
  // The product of rows [first_row, end_row) (past the constraints: zeros) with the
  // matrices' rows from first_row in a, b, c.
  void launch_product(const DeviceAssignment& z, ff::Fr* a, ff::Fr* b, ff::Fr* c, std::size_t first_row,
                      std::size_t end_row, const Matrix* const (&m)[3], const std::size_t (&first_entry)[3],
                      cudaStream_t stream);
  void evaluate_streamed(const DeviceAssignment& z, ff::Fr* a, ff::Fr* b, ff::Fr* c, cudaStream_t stream);

  std::size_t num_inputs_;
  std::size_t num_aux_;
  std::size_t num_constraints_;
  // Resident: the whole matrices. Streamed: unused (empty).
  Matrix a_;
  Matrix b_;
  Matrix c_;
  DeviceBuffer<ff::Fr> table_;
  DeviceBuffer<unsigned long long> first_unsatisfied_;  // one slot, atomicMin'ed by the product
  std::unique_ptr<Streamed> streamed_;
  std::size_t last_sent_bytes_ = 0;
};

}  // namespace zkpipe::gpu
