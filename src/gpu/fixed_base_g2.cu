// DeviceFixedBase over G2 (Fp2 coordinates): fixed_base.cuh for this curve alone.
#include "gpu/fixed_base.cuh"

namespace zkpipe::gpu {

template class DeviceFixedBase<ec::G2Curve>;

}  // namespace zkpipe::gpu
