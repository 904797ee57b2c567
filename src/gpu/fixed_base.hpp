// Fixed-base multiplication on the device: scalars[i]·G for one generator G of G1
// or G2, into the layout the MSMs read (AffineWords). Setup's bulk work: a
// 2^27-constraint key is ~430 M G1 and ~44 M G2 products, which the host's cores
// take most of an hour for and the device a few seconds.
//
// The same 8-bit windows as ec::FixedBaseTable (its table is uploaded as it is):
// one thread per scalar adds the table entry of each non-zero digit (mixed XYZZ
// additions), then makes its point affine with one Fermat inversion. The products
// equal the host's bit for bit (affine points are unique).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>
#include <span>

#include "ec/fixed_base.hpp"
#include "ff/fr.hpp"
#include "gpu/device_buffer.hpp"
#include "gpu/msm.hpp"
#include "gpu/staging.hpp"

namespace zkpipe::gpu {

template <class Curve>
class DeviceFixedBase {
 public:
  // Uploads the table (8 K points) on stream.
  DeviceFixedBase(const ec::FixedBaseTable<Curve>& table, cudaStream_t stream);

  // scalars[i]·G for every i, resident on the device; the scalars go up through
  // staging in chunks, each multiplied while the next is copied. progress(done) is
  // called after each chunk.
  DeviceBases<Curve> mul(std::span<const ff::Fr> scalars, PinnedStaging& staging, cudaStream_t stream,
                         const std::function<void(std::size_t done)>& progress = {}) const;

 private:
  DeviceBuffer<AffineWords<Curve>> table_;
};

extern template class DeviceFixedBase<ec::G1Curve>;
extern template class DeviceFixedBase<ec::G2Curve>;

}  // namespace zkpipe::gpu
