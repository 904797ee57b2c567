#include "hash/poseidon_params.hpp"

#include <algorithm>
#include <stdexcept>

#include "hash/grain_lfsr.hpp"

namespace zkpipe::hash::poseidon {

namespace {

bool all_distinct(std::vector<Fr> v) {
  std::sort(v.begin(), v.end(), [](const Fr& a, const Fr& b) { return a.mont() < b.mont(); });
  return std::adjacent_find(v.begin(), v.end()) == v.end();
}

// The reference's create_mds_p: draw 2t points until they are distinct and no
// x_i + y_j is zero.
std::vector<Fr> cauchy_matrix(GrainLfsr& lfsr, std::size_t t) {
  for (;;) {
    std::vector<Fr> points(2 * t);
    do {
      for (Fr& p : points) p = lfsr.next_fr_reduced();
    } while (!all_distinct(points));
    std::vector<Fr> m(t * t);
    bool invertible = true;
    for (std::size_t i = 0; i < t && invertible; ++i) {
      for (std::size_t j = 0; j < t && invertible; ++j) {
        const Fr sum = points[i] + points[t + j];
        invertible = !sum.is_zero();
        m[i * t + j] = sum.inverse();
      }
    }
    if (invertible) return m;
  }
}

}  // namespace

Params generate_params(std::size_t t, std::size_t full_rounds, std::size_t partial_rounds) {
  if (t < 2 || full_rounds % 2 != 0) throw std::invalid_argument("poseidon: need t >= 2 and an even R_F");
  GrainLfsr lfsr(static_cast<unsigned>(Fr::kBits), static_cast<unsigned>(t), static_cast<unsigned>(full_rounds),
                 static_cast<unsigned>(partial_rounds));
  Params p;
  p.t = t;
  p.full_rounds = full_rounds;
  p.partial_rounds = partial_rounds;
  p.round_constants.resize((full_rounds + partial_rounds) * t);
  for (Fr& c : p.round_constants) c = lfsr.next_fr_rejection_sampled();
  p.mds = cauchy_matrix(lfsr, t);
  return p;
}

const Params& params_t3() {
  static const Params p = generate_params(3, 8, 57);
  return p;
}

const Params& params_t9() {
  static const Params p = generate_params(9, 8, 57);
  return p;
}

const Params& params_t12() {
  static const Params p = generate_params(12, 8, 57);
  return p;
}

}  // namespace zkpipe::hash::poseidon
