#include "gpu/placement.hpp"

#include <algorithm>
#include <bit>

#include "ff/fr.hpp"
#include "gpu/msm.hpp"
#include "gpu/msm_streamed.hpp"
#include "gpu/ntt.hpp"

namespace zkpipe::gpu {

KeyQuerySizes KeyQuerySizes::of(const groth16::ProvingKey& key) {
  return {key.domain_size(), key.num_inputs(), key.a.size(), key.b_g1.size(), key.b_g2.size(), key.l.size(),
          key.h.size()};
}

KeyQuerySizes KeyQuerySizes::of(const groth16::CircuitShape& shape) {
  const std::size_t b = shape.b_input_density + shape.b_aux_density;
  return {shape.domain_size, shape.inputs, shape.inputs + shape.a_aux_density, b, b, shape.aux,
          shape.domain_size - 1};
}

std::size_t resident_point_bytes(const KeyQuerySizes& k, bool g2_on_device) {
  return (k.a + k.b_g1 + k.l + k.h) * sizeof(G1AffineWords) + (g2_on_device ? k.b_g2 * sizeof(G2AffineWords) : 0);
}

std::size_t working_bytes(const KeyQuerySizes& k) {
  const std::size_t vectors = k.domain + std::max(k.domain, k.l) + std::max(k.domain, k.inputs + k.l);
  const auto log_domain = static_cast<unsigned>(std::bit_width(std::max<std::size_t>(k.domain, 1)) - 1);
  return vectors * sizeof(ff::Fr) + DeviceNtt::table_bytes(log_domain);
}

std::size_t least_device_bytes(const KeyQuerySizes& k) {
  const std::size_t chunk = StreamedG2Msm::kMinChunkPoints;
  const std::size_t streamed_msm = 2 * chunk * (sizeof(G1AffineWords) + sizeof(G2AffineWords)) +
                                   DeviceMsm::scratch_bytes<ec::G2Curve>(chunk);
  return working_bytes(k) + streamed_msm;
}

bool evaluator_fits(const KeyQuerySizes& k, std::size_t evaluator_bytes, std::size_t available) {
  return evaluator_bytes + least_device_bytes(k) + device_memory_margin(available) <= available;
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

std::optional<std::size_t> resident_pass_terms(const KeyQuerySizes& k, std::size_t max_pass_terms, bool g2_on_device,
                                               std::size_t available) {
  for (std::size_t terms = max_pass_terms;; terms /= 2) {
    if (resident_need(k, terms, g2_on_device, available) <= available) return terms;
    if (terms / 2 < kMinMsmPassTerms) return std::nullopt;
  }
}

}  // namespace zkpipe::gpu
