// What the prover's heaviest kernels must do at least, and how long that takes at a
// device's measured rates: the bytes they move through device memory, the Fr products
// and the G1 mixed additions they compute. A kernel takes at least the larger of its
// memory and compute bounds; its measured time over that bound is what a faster
// kernel could still win (`zkpipe bench limit` prints both).
#pragma once

#include <cstddef>

namespace zkpipe::gpu {

struct KernelWork {
  double bytes = 0;      // read and written in device memory
  double products = 0;   // Fr products
  double additions = 0;  // G1 mixed additions (XYZZ + affine)
};

// Measured on the device: device-memory bytes per second (a copy's reads and writes
// counted), Fr products and G1 mixed additions per second over every multiprocessor.
struct DeviceRates {
  double bytes_per_second = 0;
  double products_per_second = 0;
  double additions_per_second = 0;
};

struct KernelBound {
  double memory_seconds = 0;
  double compute_seconds = 0;
  double seconds() const { return memory_seconds > compute_seconds ? memory_seconds : compute_seconds; }
};

KernelBound bound(const KernelWork& work, const DeviceRates& rates);

// The h step over 2^log_size (DeviceNtt::h_scalars with interpolation), done as it is
// done: three inverse and three forward transforms of a, b and c and one inverse of the
// quotient, each a pass count of DeviceNtt's plan reading and writing every element,
// and the quotient's pass. Products: the butterflies of every stage but the first
// (whose twiddles are 1), the four scaled stores (1/N, the coset) and the quotient's two.
KernelWork h_step_work(unsigned log_size, unsigned tile_log);

// The bucket accumulation of a Pippenger sum of `terms` full-width scalars at window
// width c: one mixed addition per term and window, reading the term's point (96 bytes)
// and its sorted entry (4 bytes).
KernelWork msm_accumulate_work(std::size_t terms, unsigned window_bits);

// A whole sum over witness-like scalars (mostly 0 and 1): every scalar read once, each
// scalar-1 term one addition of its point, and each of the `general` other non-zero
// terms one per window at width c (msm_accumulate_work); zeros cost only their read.
KernelWork msm_witness_work(std::size_t terms, std::size_t ones, std::size_t general, unsigned window_bits);

}  // namespace zkpipe::gpu
