// G1 of BLS12-381 (y² = x³ + 4 over Fp) on the device.
#pragma once

#include "gpu/field.cuh"
#include "gpu/xyzz.cuh"

namespace zkpipe::gpu {

using G1Affine = AffinePoint<Fp>;
using G1Xyzz = XyzzPoint<Fp>;

static_assert(sizeof(G1Affine) == 96);
static_assert(sizeof(G1Xyzz) == 192);

}  // namespace zkpipe::gpu
