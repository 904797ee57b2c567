// The device point types of a host curve: G1 over Fp, G2 over Fp2 (what kernels
// templated on the host's ec::G1Curve / ec::G2Curve compute with).
#pragma once

#include "ec/curves.hpp"
#include "gpu/g1.cuh"
#include "gpu/g2.cuh"

namespace zkpipe::gpu {

template <class Curve>
struct DevicePoint;
template <>
struct DevicePoint<ec::G1Curve> {
  using Xyzz = G1Xyzz;
};
template <>
struct DevicePoint<ec::G2Curve> {
  using Xyzz = G2Xyzz;
};

}  // namespace zkpipe::gpu
