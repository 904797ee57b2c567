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

// "p = q" or "p = −q", or nullopt when neither holds.
std::optional<std::string> equal_up_to_sign(const G2Affine& p, const char* p_name, const G2Affine& q,
                                            const char* q_name) {
  if (p == q) return std::string(p_name) + " = " + q_name;
  if (p == -q) return std::string(p_name) + " = -" + q_name;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> insecure_key_relation(const VerifyingKey& vk) {
  const std::string refused = " makes the pairing equation trivial: ";
  if (auto r = equal_up_to_sign(vk.gamma_g2, "vk_gamma_2", vk.delta_g2, "vk_delta_2")) {
    return *r + refused +
           "a proof A = alpha, B = beta, C = -+IC(x) verifies for any public inputs "
           "(a snarkjs .zkey without a phase-2 contribution has gamma = delta)";
  }
  if (auto r = equal_up_to_sign(vk.gamma_g2, "vk_gamma_2", vk.beta_g2, "vk_beta_2")) {
    return *r + refused + "a proof A = alpha +- IC(x), B = beta, C = 0 verifies for any public inputs";
  }
  if (auto r = equal_up_to_sign(vk.delta_g2, "vk_delta_2", vk.beta_g2, "vk_beta_2")) {
    return *r + refused + "a proof A = IC(x), B = gamma, C = -+alpha verifies for any public inputs";
  }
  for (std::size_t i = 0; i < vk.ic.size(); ++i) {
    if (vk.ic[i].is_identity()) {
      return "IC[" + std::to_string(i) + "] is the point at infinity" + refused +
             (i == 0 ? "the proof A = alpha, B = beta, C = 0 verifies for all-zero public inputs"
                     : "public input " + std::to_string(i) + " is not bound by the proof");
    }
  }
  return std::nullopt;
}

std::optional<std::string> verifying_key_problem(const VerifyingKey& vk, InsecureKey insecure) {
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
  if (insecure == InsecureKey::kRefuse) return insecure_key_relation(vk);
  return std::nullopt;
}

}  // namespace zkpipe::groth16
