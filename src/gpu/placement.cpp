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

std::size_t streamed_chunk_reserve(const KeyQuerySizes& k, bool g2_on_device) {
  return std::min(std::size_t{2} << 30, resident_point_bytes(k, g2_on_device) / 8);
}

std::size_t QueryResidency::bytes(const KeyQuerySizes& k) const {
  const std::size_t g1 = (a ? k.a : 0) + (b_g1 ? k.b_g1 : 0) + (l ? k.l : 0) + (h ? k.h : 0);
  return g1 * sizeof(G1AffineWords) + (b_g2 ? k.b_g2 * sizeof(G2AffineWords) : 0);
}

std::string QueryResidency::names() const {
  std::string text;
  const auto add = [&](bool resident, const char* name) {
    if (resident) text += (text.empty() ? "" : ", ") + std::string(name);
  };
  add(l, "L");
  add(a, "A");
  add(b_g1, "B (G1)");
  add(b_g2, "B (G2)");
  add(h, "H");
  return text.empty() ? "none" : text;
}

QueryResidency plan_query_residency(const KeyQuerySizes& k, std::size_t max_pass_terms, bool g2_on_device,
                                    std::size_t available) {
  QueryResidency plan;
  if (const auto terms = resident_pass_terms(k, max_pass_terms, g2_on_device, available)) {
    plan.a = plan.b_g1 = plan.l = plan.h = true;
    plan.b_g2 = g2_on_device;
    plan.msm_pass_terms = *terms;
    return plan;
  }
  plan.msm_pass_terms = std::min(max_pass_terms, kMinMsmPassTerms);
  // One pass over whichever query is resident: the largest of them bounds it.
  const std::size_t g1_terms = std::min(plan.msm_pass_terms, std::max({k.l, k.a, k.b_g1}));
  const std::size_t scratch =
      std::max(DeviceMsm::scratch_bytes<ec::G1Curve>(g1_terms),
               g2_on_device ? DeviceMsm::scratch_bytes<ec::G2Curve>(std::min(plan.msm_pass_terms, k.b_g2)) : 0);
  const std::size_t kept = least_device_bytes(k) + device_memory_margin(available) +
                           streamed_chunk_reserve(k, g2_on_device) + scratch;
  std::size_t room = available > kept ? available - kept : 0;
  const auto keep = [&](bool& resident, std::size_t bytes) {
    if (bytes == 0 || bytes > room) return;
    resident = true;
    room -= bytes;
  };
  keep(plan.l, k.l * sizeof(G1AffineWords));
  keep(plan.a, k.a * sizeof(G1AffineWords));
  keep(plan.b_g1, k.b_g1 * sizeof(G1AffineWords));
  if (g2_on_device) keep(plan.b_g2, k.b_g2 * sizeof(G2AffineWords));
  return plan;
}

}  // namespace zkpipe::gpu
