// The eight-lane AVX-512 IFMA Fp arithmetic against Fp (itself checked against GMP),
// on edge values and random residues. Skips on processors without IFMA.
#include "ff/fp_x8.hpp"

#include "ff/fp2_x8.hpp"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#ifdef ZKPIPE_FF_X86_64

namespace zkpipe::ff {
namespace {

std::vector<Fp> operands() {
  std::vector<Fp> v;
  v.push_back(Fp::zero());
  v.push_back(Fp::from_mont(Limbs<6>{1, 0, 0, 0, 0, 0}));
  v.push_back(Fp::one());
  v.push_back(Fp::from_mont(detail::sub_small(Fp::kModulus, 1)));
  v.push_back(Fp::from_mont(detail::sub_small(Fp::kModulus, 2)));
  v.push_back(Fp::from_mont(Fp::kHalfPMinus1));
  Limbs<6> below{};
  for (auto& limb : below) limb = ~u64{0};
  below[5] = Fp::kModulus[5] - 1;
  v.push_back(Fp::from_mont(below));
  v.push_back(Fp::from_mont(Limbs<6>{fp_x8_detail::kMask48, 0, 0, 0, 0, 0}));
  std::mt19937_64 rng(48);
  while (v.size() % 8 != 0 || v.size() < 4096) v.push_back(Fp::random(rng));
  return v;
}

enum class Op { add, sub, mul, square };

ZKPIPE_TARGET_AVX512_IFMA FpX8 apply(Op op, const FpX8& a, const FpX8& b) {
  switch (op) {
    case Op::add: return fpx8_add(a, b);
    case Op::sub: return fpx8_sub(a, b);
    case Op::mul: return fpx8_mul(a, b);
    case Op::square: return fpx8_square(a);
  }
  return a;
}

ZKPIPE_TARGET_AVX512_IFMA void run_lanes(Op op, const FpX8Lanes& a, const FpX8Lanes& b,
                                                            FpX8Lanes& out) {
  fpx8_store(out, apply(op, fpx8_load(a), fpx8_load(b)));
}

Fp expected(Op op, const Fp& a, const Fp& b) {
  switch (op) {
    case Op::add: return a + b;
    case Op::sub: return a - b;
    case Op::mul: return a * b;
    case Op::square: return a.square();
  }
  return a;
}

void check(Op op) {
  if (!kCpuHasAvx512Ifma) GTEST_SKIP() << "no AVX-512 IFMA on this processor";
  const auto v = operands();
  // Every operand meets its neighbour and the edge values, in every lane position.
  for (std::size_t shift : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{8}}) {
    for (std::size_t base = 0; base < v.size(); base += 8) {
      FpX8Lanes a{}, b{}, out{};
      for (std::size_t lane = 0; lane < 8; ++lane) {
        a.set(lane, v[base + lane]);
        b.set(lane, v[(base + lane * 7 + shift) % v.size()]);
      }
      run_lanes(op, a, b, out);
      for (std::size_t lane = 0; lane < 8; ++lane) {
        const Fp x = v[base + lane];
        const Fp y = v[(base + lane * 7 + shift) % v.size()];
        ASSERT_EQ(out.get(lane), expected(op, x, y)) << "lane " << lane << " of group " << base / 8;
      }
    }
  }
}

ZKPIPE_TARGET_AVX512_IFMA void fp2_lanes(bool square, const Fp2X8Lanes& a,
                                                            const Fp2X8Lanes& b, Fp2X8Lanes& out) {
  const Fp2X8 x = fpx8_load(a);
  fpx8_store(out, square ? fpx8_square(x) : fpx8_mul(x, fpx8_load(b)));
}

TEST(Fp2X8, MulAndSquareMatchFp2) {
  if (!kCpuHasAvx512Ifma) GTEST_SKIP() << "no AVX-512 IFMA on this processor";
  const auto v = operands();
  for (std::size_t base = 0; base + 16 <= v.size(); base += 16) {
    Fp2X8Lanes a{}, b{}, product{}, square{};
    std::array<Fp2, 8> x, y;
    for (std::size_t lane = 0; lane < 8; ++lane) {
      x[lane] = {v[base + lane], v[(base + 8 + lane) % v.size()]};
      y[lane] = {v[(base * 3 + lane) % v.size()], v[lane]};
      a.set(lane, x[lane]);
      b.set(lane, y[lane]);
    }
    fp2_lanes(false, a, b, product);
    fp2_lanes(true, a, b, square);
    for (std::size_t lane = 0; lane < 8; ++lane) {
      ASSERT_EQ(product.get(lane), x[lane] * y[lane]) << "lane " << lane;
      ASSERT_EQ(square.get(lane), x[lane].square()) << "lane " << lane;
    }
  }
}

TEST(FpX8, LanesRoundTrip) {
  for (const Fp& x : operands()) {
    FpX8Lanes lanes{};
    lanes.set(5, x);
    ASSERT_EQ(lanes.get(5), x);
  }
}

TEST(FpX8, AddMatchesFp) { check(Op::add); }
TEST(FpX8, SubMatchesFp) { check(Op::sub); }
TEST(FpX8, MulMatchesFp) { check(Op::mul); }
TEST(FpX8, SquareMatchesFp) { check(Op::square); }

}  // namespace
}  // namespace zkpipe::ff

#endif  // ZKPIPE_FF_X86_64
