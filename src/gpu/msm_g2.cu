// DeviceMsm's sums over G2 (Fp2 coordinates): the point kernels of msm_points.cuh
// for this curve alone.
#include "gpu/msm_points.cuh"

namespace zkpipe::gpu {

ec::Jacobian<ec::G2Curve> DeviceMsm::sum(DeviceBasesView<ec::G2Curve> bases, const ff::Fr* scalars, std::size_t n,
                                         cudaStream_t stream, unsigned window_bits) {
  return sum_impl(bases, scalars, n, stream, window_bits);
}

template ec::Jacobian<ec::G2Curve> DeviceMsm::sum_impl(DeviceBasesView<ec::G2Curve>, const ff::Fr*, std::size_t,
                                                       cudaStream_t, unsigned);

}  // namespace zkpipe::gpu
