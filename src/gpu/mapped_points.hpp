// Points gathered by the device straight from registered host memory (zero-copy):
// the streamed MSM's chunks read a key's host points over the link into the device
// layout, with no host thread converting or copying them.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "ec/affine.hpp"
#include "ec/curves.hpp"
#include "gpu/msm.hpp"

namespace zkpipe::gpu {

// out[j] = the device words of points[indices[j]], or of points[first + j] when
// indices is null, for j < count. `points` is the device address of registered host
// memory (HostRegistration::device_pointer), indices and out device memory. Queued
// on stream.
template <class Curve>
void gather_mapped_points(const ec::Affine<Curve>* points, const std::uint32_t* indices, std::size_t first,
                          std::size_t count, AffineWords<Curve>* out, cudaStream_t stream);

}  // namespace zkpipe::gpu
