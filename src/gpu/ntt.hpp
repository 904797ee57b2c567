// Number-theoretic transforms over Fr on the device, for one EvaluationDomain, with
// the semantics and orders of poly/ntt.hpp (results equal bit for bit).
//
// Transforms run in place on device vectors of exactly size() elements. Each is a
// few passes over memory: a pass loads a tile of 2^tile_log elements and the
// twiddles of its stages into shared memory and does up to tile_log stages there,
// two at a time as radix-4 butterflies (DIF for natural input, DIT for bit-reversed
// input). Twiddles come from per-stage tables resident on the device, so each
// pass reads them in runs like its data; past the first table_stages stages they
// are computed from two small tables of powers instead (a table for every stage
// would be 2·32·N bytes: 8 GiB at 2^27). For natural-order output, the last DIF
// pass stores each value at its bit-reversed index (in runs of four), reading the
// previous pass's output from a scratch vector (out of place). A 1/N or
// coset scaling after a transform is applied by its last pass as it stores; the
// coset scaling before a forward transform is a separate element-wise pass.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <mutex>
#include <optional>

#include "ff/fr.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/device_profile.hpp"
#include "poly/evaluation_domain.hpp"
#include "poly/ntt.hpp"

namespace zkpipe::gpu {

// x^e for e < 2^log_count as hi[e >> lo_bits] · lo[e mod 2^lo_bits] (a scale folded
// into hi): two tables of about 2^(log_count/2) points instead of one of 2^log_count.
struct DevicePowers {
  DevicePowers(const ff::Fr& x, const ff::Fr& scale, unsigned log_count,
               memory::BufferLedger& ledger = memory::BufferLedger::process());

  // Entries of both tables for 2^log_count powers.
  static std::size_t entries(unsigned log_count);

  DeviceBuffer<ff::Fr> hi;
  DeviceBuffer<ff::Fr> lo;
  unsigned lo_bits;
};

class DeviceNtt {
 public:
  // Largest pass tile (2^10 elements and their twiddles: 64 KiB of shared memory,
  // three blocks per multiprocessor).
  static constexpr unsigned kMaxTileLog = launch::kNttMaxTileLog;
  // The fastest tile measured on an H200 (bench_gpu tiles): more resident blocks
  // beat fewer passes. choose_kernel_config takes a smaller one where a device's
  // blocks hold less shared memory.
  static constexpr unsigned kDefaultTileLog = launch::kNttPreferredTileLog;

  // Stages whose twiddles come from tables (2^22 entries, 128 MiB, each way): the
  // passes' loads of the higher stages' twiddles cost one product each (the h step
  // at 2^27 took 9.7 % longer with 20 stages tabled than with all 27 on an H100).
  static constexpr unsigned kDefaultTableStages = 22;

  // Builds the twiddle tables on the device (min(N, 2^table_stages) points each
  // way); a natural-order transform adds a 32·N-byte scratch vector on first use.
  // tile_log (clamped to [4, kMaxTileLog]) is the pass tile.
  explicit DeviceNtt(const poly::EvaluationDomain& domain, unsigned tile_log = kDefaultTileLog,
                     unsigned table_stages = kDefaultTableStages);
  // The tables and scratch charge `ledger`.
  DeviceNtt(const poly::EvaluationDomain& domain, memory::BufferLedger& ledger, unsigned tile_log = kDefaultTileLog,
            unsigned table_stages = kDefaultTableStages);

  // Device bytes of the tables a DeviceNtt of 2^log_size builds (the natural-order
  // scratch not included).
  static std::size_t table_bytes(unsigned log_size, unsigned table_stages = kDefaultTableStages);

  // Passes over memory of one transform of 2^log_size with tiles of 2^tile_log (as
  // clamped by the constructor): a DIF or DIT, or with `reversing` a DIF whose last
  // pass also stores in bit-reversed order (natural-order output).
  static std::size_t pass_count(unsigned log_size, unsigned tile_log, bool reversing);

  unsigned log_size() const { return log_size_; }
  unsigned tile_log() const { return tile_log_; }
  std::size_t size() const { return std::size_t{1} << log_size_; }

  // `values` is a device pointer to size() elements.
  void forward(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const;
  void inverse(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const;
  void coset_forward(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const;
  void coset_inverse(ff::Fr* values, poly::NttOrder order, cudaStream_t stream) const;

  // The Groth16 h step on evaluations of A, B, C over the domain, like
  // groth16::compute_h_in_place: a ← coefficients of (A·B − C)/Z (natural order),
  // or with divide_and_interpolate false, a ← A·B − C on the coset (natural order).
  // b and c are clobbered.
  void h_scalars(ff::Fr* a, ff::Fr* b, ff::Fr* c, bool divide_and_interpolate, cudaStream_t stream) const;

 private:
  enum class Direction { forward, inverse };
  // One direction's twiddles: the stage tables of the first `stages` stages, and
  // the powers of ω (exponents below N/2) the higher stages' are computed from.
  struct StageTwiddles {
    StageTwiddles(const ff::Fr& omega, unsigned log_size, unsigned stages, memory::BufferLedger& ledger);

    DeviceBuffer<ff::Fr> table;
    unsigned stages;
    std::optional<DevicePowers> top;
  };

  // The transform in the given order, then with `powers` set, the value at output
  // index o (its natural index i: o = i, or bitrev(i) in bit-reversed output)
  // multiplied by x^i.
  // scratch: size() elements a natural-order output may use (the shared scratch_
  // when null).
  void transform(ff::Fr* values, Direction direction, poly::NttOrder order, const DevicePowers* powers,
                 cudaStream_t stream, ff::Fr* scratch = nullptr) const;
  enum class PassKind { dif, dif_reversing, dit };
  // One pass over stages [s_lo, s_lo + k) with 2^m columns per block; with `powers`
  // set, each stored value is multiplied by x^o (x^bitrev(o) with
  // scale_bit_reversed) at its output index o.
  void run_pass(const ff::Fr* src, ff::Fr* dst, const StageTwiddles& twiddles, PassKind kind, unsigned s_lo, unsigned k,
                unsigned m, const DevicePowers* powers, bool scale_bit_reversed, cudaStream_t stream) const;
  // Natural input → bit-reversed output (decimation in frequency), or natural
  // output with the reversal folded into the last pass, which then reads the
  // previous pass's output from scratch; `powers` as in transform.
  void dif(ff::Fr* values, const StageTwiddles& twiddles, bool natural_output, const DevicePowers* powers, ff::Fr* scratch,
           cudaStream_t stream) const;
  // Bit-reversed input → natural output (decimation in time).
  void dit(ff::Fr* values, const StageTwiddles& twiddles, const DevicePowers* powers, cudaStream_t stream) const;
  // values[i] ·= x^e(i), e(i) = i or bitrev(i).
  void scale(ff::Fr* values, const DevicePowers& powers, bool bit_reversed_index, cudaStream_t stream) const;
  // `given`, or scratch_ (allocated on first use).
  ff::Fr* scratch_for(ff::Fr* given) const;

  unsigned log_size_;
  unsigned tile_log_;
  ff::Fr vanishing_inv_;
  StageTwiddles forward_twiddles_;
  StageTwiddles inverse_twiddles_;
  DevicePowers size_inv_;            // 1^i / N
  DevicePowers shift_;               // g^i
  DevicePowers shift_over_size_;     // g^i / N
  DevicePowers shift_inv_over_size_; // g^−i / N
  // Natural-order transforms without a caller's scratch stage through this one
  // (size() elements, allocated on first use): such calls on one DeviceNtt must
  // be ordered with each other (one stream, or synchronized).
  mutable std::mutex scratch_mutex_;
  mutable DeviceBuffer<ff::Fr> scratch_;  // charges the tables' ledger
};

}  // namespace zkpipe::gpu
