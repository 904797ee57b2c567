// The two BLS12-381 groups as parameter structs: y^2 = x^3 + b, a = 0.
#pragma once

#include "ff/fp.hpp"
#include "ff/fp2.hpp"

namespace zkpipe::ec {

using ff::Fp;
using ff::Fp2;

struct G1Curve {
  using Field = Fp;
  static constexpr const char* kName = "G1";
  static constexpr Fp b() { return Fp::from_u64(4); }

  // 3b * a = 12a by additions (complete projective formulas need 3b).
  static constexpr Fp mul_by_3b(const Fp& a) {
    Fp a3 = a.dbl() + a;
    return a3.dbl().dbl();
  }
};

// The sextic twist E'(Fp2): y^2 = x^3 + 4(1 + u).
struct G2Curve {
  using Field = Fp2;
  static constexpr const char* kName = "G2";
  static constexpr Fp2 b() { return {Fp::from_u64(4), Fp::from_u64(4)}; }

  // 3b * a = 12(1 + u) * a; (1 + u) is Fp2's non-residue ξ.
  static constexpr Fp2 mul_by_3b(const Fp2& a) {
    Fp2 xi_a = a.mul_by_nonresidue();
    Fp2 a3 = xi_a.dbl() + xi_a;
    return a3.dbl().dbl();
  }
};

}  // namespace zkpipe::ec
