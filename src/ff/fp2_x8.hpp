// Eight Fp2 elements at once (u² = −1), on FpX8 (ff/fp_x8.hpp): Karatsuba
// multiplication (three FpX8 products) and the complex squaring (two).
#pragma once

#include "ff/fp2.hpp"
#include "ff/fp_x8.hpp"

#ifdef ZKPIPE_FF_X86_64

namespace zkpipe::ff {

struct Fp2X8 {
  FpX8 c0;
  FpX8 c1;
};

struct Fp2X8Lanes {
  FpX8Lanes c0;
  FpX8Lanes c1;

  void set(std::size_t lane, const Fp2& x) {
    c0.set(lane, x.c0);
    c1.set(lane, x.c1);
  }
  Fp2 get(std::size_t lane) const { return {c0.get(lane), c1.get(lane)}; }
};

ZKPIPE_AVX512_IFMA inline Fp2X8 fpx8_load(const Fp2X8Lanes& lanes) {
  return {fpx8_load(lanes.c0), fpx8_load(lanes.c1)};
}

ZKPIPE_AVX512_IFMA inline void fpx8_store(Fp2X8Lanes& lanes, const Fp2X8& x) {
  fpx8_store(lanes.c0, x.c0);
  fpx8_store(lanes.c1, x.c1);
}

ZKPIPE_AVX512_IFMA inline Fp2X8 fpx8_add(const Fp2X8& a, const Fp2X8& b) {
  return {fpx8_add(a.c0, b.c0), fpx8_add(a.c1, b.c1)};
}

ZKPIPE_AVX512_IFMA inline Fp2X8 fpx8_sub(const Fp2X8& a, const Fp2X8& b) {
  return {fpx8_sub(a.c0, b.c0), fpx8_sub(a.c1, b.c1)};
}

ZKPIPE_AVX512_IFMA inline Fp2X8 fpx8_mul(const Fp2X8& a, const Fp2X8& b) {
  const FpX8 v0 = fpx8_mul(a.c0, b.c0);
  const FpX8 v1 = fpx8_mul(a.c1, b.c1);
  const FpX8 cross = fpx8_mul(fpx8_add(a.c0, a.c1), fpx8_add(b.c0, b.c1));
  return {fpx8_sub(v0, v1), fpx8_sub(fpx8_sub(cross, v0), v1)};
}

// (a0 + a1·u)² = (a0 + a1)(a0 − a1) + 2·a0·a1·u.
ZKPIPE_AVX512_IFMA inline Fp2X8 fpx8_square(const Fp2X8& a) {
  const FpX8 c0 = fpx8_mul(fpx8_add(a.c0, a.c1), fpx8_sub(a.c0, a.c1));
  const FpX8 product = fpx8_mul(a.c0, a.c1);
  return {c0, fpx8_add(product, product)};
}

}  // namespace zkpipe::ff

#endif  // ZKPIPE_FF_X86_64
