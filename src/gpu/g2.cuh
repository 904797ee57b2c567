// G2 of BLS12-381 on the device: the sextic twist y² = x³ + 4(1 + u) over Fp2.
#pragma once

#include "gpu/fp2.cuh"
#include "gpu/xyzz.cuh"

namespace zkpipe::gpu {

using G2Affine = AffinePoint<Fp2>;
using G2Xyzz = XyzzPoint<Fp2>;

static_assert(sizeof(G2Affine) == 192);
static_assert(sizeof(G2Xyzz) == 384);

}  // namespace zkpipe::gpu
