// G1 multi-scalar multiplication on the device (Pippenger), equal as a point to
// ec::msm for the same inputs.
//
//   1. digits: each scalar, out of Montgomery form, is cut into signed c-bit digits
//      |d| ≤ 2^(c−1); scalars 0 and 1 get no digits (1s go to a list of their own).
//   2. sort: (window, |d|) keys with (point index, sign) values, CUB radix sort.
//   3. buckets: one thread per bucket adds its points (XYZZ, mixed additions).
//   4. reduction: Σ_d d·bucket_d per window by running sums over segments of
//      buckets in parallel, then a pairwise tree over the segments.
//   5. the points of scalar 1 are summed in parallel chunks and a tree.
//   6. the host combines the window sums by doubling (Horner) and adds the 1s.
// Scratch memory stays allocated in the DeviceMsm and is reused by later calls.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <span>

#include "ec/affine.hpp"
#include "ec/curves.hpp"
#include "ec/jacobian.hpp"
#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/staging.hpp"

namespace zkpipe::gpu {

// The device layout of an affine G1 point: x, y in Montgomery form; (0, 0) is the
// point at infinity.
struct G1AffineWords {
  ff::Fp x;
  ff::Fp y;
};

// G1 points resident on the device.
class DeviceG1Bases {
 public:
  DeviceG1Bases() = default;
  DeviceG1Bases(std::span<const ec::Affine<ec::G1Curve>> points, PinnedStaging& staging, cudaStream_t stream);

  std::size_t size() const { return size_; }
  const G1AffineWords* data() const { return points_.data(); }

 private:
  DeviceBuffer<G1AffineWords> points_;
  std::size_t size_ = 0;
};

class DeviceMsm {
 public:
  // Σ scalars[i]·bases[i] for i < n; scalars is a device pointer to n Montgomery
  // Fr values, n ≤ bases.size(). window_bits 0 picks a width from n. Synchronizes
  // with stream before returning.
  ec::Jacobian<ec::G1Curve> sum(const DeviceG1Bases& bases, const ff::Fr* scalars, std::size_t n, cudaStream_t stream,
                                unsigned window_bits = 0);

  static unsigned default_window_bits(std::size_t n);

 private:
  struct Xyzz;  // device XYZZ point bytes (4 Fp)

  DeviceBuffer<std::uint32_t> keys_;
  DeviceBuffer<std::uint32_t> values_;
  DeviceBuffer<std::uint32_t> sorted_keys_;
  DeviceBuffer<std::uint32_t> sorted_values_;
  DeviceBuffer<std::byte> sort_temp_;
  DeviceBuffer<std::uint32_t> bucket_start_;
  DeviceBuffer<std::uint32_t> bucket_end_;
  DeviceBuffer<ff::Fp> buckets_;      // XYZZ, 4 Fp each
  DeviceBuffer<ff::Fp> segments_;     // XYZZ, 4 Fp each
  DeviceBuffer<std::uint32_t> ones_;  // indices of scalar-1 terms, count first
  DeviceBuffer<ff::Fp> ones_partial_; // XYZZ, 4 Fp each
};

}  // namespace zkpipe::gpu
