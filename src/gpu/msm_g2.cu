// DeviceMsm's sums over G2 (Fp2 coordinates): the point kernels of msm_points.cuh
// for this curve alone.
#include "gpu/msm_points.cuh"

namespace zkpipe::gpu {

ec::Jacobian<ec::G2Curve> DeviceMsm::sum(DeviceBasesView<ec::G2Curve> bases, const ff::Fr* scalars, std::size_t n,
                                         cudaStream_t stream, unsigned window_bits) {
  begin_parts<ec::G2Curve>(window_bits);
  add_part(bases, scalars, n, stream);
  return end_parts<ec::G2Curve>(stream);
}

template void DeviceMsm::add_part(DeviceBasesView<ec::G2Curve>, const ff::Fr*, std::size_t, cudaStream_t);
template ec::Jacobian<ec::G2Curve> DeviceMsm::end_parts(cudaStream_t);

}  // namespace zkpipe::gpu
