// DeviceFixedBase over G1 (Fp coordinates): fixed_base.cuh for this curve alone.
#include "gpu/fixed_base.cuh"

namespace zkpipe::gpu {

template class DeviceFixedBase<ec::G1Curve>;

}  // namespace zkpipe::gpu
