#include "groth16/key_validation.hpp"

#include "ec/subgroup.hpp"

namespace zkpipe::groth16 {

namespace {

template <class Point>
std::optional<std::string> point_problem(const Point& p, const std::string& name, bool may_be_infinity) {
  if (p.is_identity()) {
    if (may_be_infinity) return std::nullopt;
    return name + " is the point at infinity";
  }
  if (!p.is_on_curve()) return name + " is not on the curve";
  if (!ec::is_in_subgroup(p)) return name + " is not in the prime-order subgroup";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> verifying_key_problem(const VerifyingKey& vk) {
  if (auto p = point_problem(vk.alpha_g1, "vk_alpha_1", false)) return p;
  if (auto p = point_problem(vk.beta_g2, "vk_beta_2", false)) return p;
  if (auto p = point_problem(vk.gamma_g2, "vk_gamma_2", false)) return p;
  if (auto p = point_problem(vk.delta_g2, "vk_delta_2", false)) return p;
  if (auto p = point_problem(vk.beta_g1, "vk_beta_1", true)) return p;
  if (auto p = point_problem(vk.delta_g1, "vk_delta_1", true)) return p;
  if (vk.ic.empty()) return "IC is empty (it holds at least the constant ONE's point)";
  for (std::size_t i = 0; i < vk.ic.size(); ++i) {
    if (auto p = point_problem(vk.ic[i], "IC[" + std::to_string(i) + "]", true)) return p;
  }
  return std::nullopt;
}

}  // namespace zkpipe::groth16
