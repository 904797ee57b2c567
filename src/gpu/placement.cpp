#include "gpu/placement.hpp"

#include <algorithm>

#include "ff/fr.hpp"
#include "gpu/msm.hpp"
#include "gpu/msm_streamed.hpp"

namespace zkpipe::gpu {

KeyQuerySizes KeyQuerySizes::of(const groth16::ProvingKey& key) {
  return {key.domain_size(), key.a.size(), key.b_g1.size(), key.b_g2.size(), key.l.size(), key.h.size()};
}

KeyQuerySizes KeyQuerySizes::of(const groth16::CircuitShape& shape) {
  const std::size_t b = shape.b_input_density + shape.b_aux_density;
  return {shape.domain_size, shape.inputs + shape.a_aux_density, b, b, shape.aux, shape.domain_size - 1};
}

std::size_t resident_point_bytes(const KeyQuerySizes& k, bool g2_on_device) {
  return (k.a + k.b_g1 + k.l + k.h) * sizeof(G1AffineWords) + (g2_on_device ? k.b_g2 * sizeof(G2AffineWords) : 0);
}

std::size_t working_bytes(const KeyQuerySizes& k) { return (6 * k.domain + 2 * k.l) * sizeof(ff::Fr); }

std::size_t least_device_bytes(const KeyQuerySizes& k) {
  const std::size_t chunk = StreamedG2Msm::kMinChunkPoints;
  const std::size_t streamed_msm = 2 * chunk * (sizeof(G1AffineWords) + sizeof(G2AffineWords)) +
                                   DeviceMsm::scratch_bytes<ec::G2Curve>(chunk);
  return working_bytes(k) + streamed_msm;
}

std::size_t resident_need(const KeyQuerySizes& k, std::size_t msm_pass_terms, bool g2_on_device,
                          std::size_t available) {
  const std::size_t terms = std::min(msm_pass_terms, std::max({k.a, k.b_g1, k.l, k.h}));
  const std::size_t scratch =
      g2_on_device ? std::max(DeviceMsm::scratch_bytes<ec::G1Curve>(terms),
                              DeviceMsm::scratch_bytes<ec::G2Curve>(std::min(msm_pass_terms, k.b_g2)))
                   : DeviceMsm::scratch_bytes<ec::G1Curve>(terms);
  return resident_point_bytes(k, g2_on_device) + scratch + working_bytes(k) + device_memory_margin(available);
}

}  // namespace zkpipe::gpu
