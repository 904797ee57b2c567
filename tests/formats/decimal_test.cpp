#include "formats/decimal.hpp"

#include <gmp.h>
#include <gtest/gtest.h>

#include <random>

#include "ff/gmp_oracle.hpp"

namespace zkpipe::formats {
namespace {

using ff::testing::Mpz;

std::string gmp_decimal(const ff::Limbs<6>& v) {
  Mpz m = Mpz::from_limbs(v);
  char* s = mpz_get_str(nullptr, 10, m.get());
  std::string out(s);
  void (*free_fn)(void*, std::size_t);
  mp_get_memory_functions(nullptr, nullptr, &free_fn);
  free_fn(s, out.size() + 1);
  return out;
}

TEST(Decimal, MatchesGmpBothWays) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 200; ++i) {
    ff::Limbs<6> v{};
    const int limbs = 1 + i % 6;
    for (int k = 0; k < limbs; ++k) v[k] = rng();
    const std::string dec = gmp_decimal(v);
    EXPECT_EQ(to_decimal(v), dec);
    EXPECT_EQ(parse_integer<6>(dec), v);
  }
  EXPECT_EQ(to_decimal(ff::Limbs<4>{}), "0");
}

TEST(Decimal, ParsesHexAndFieldElements) {
  EXPECT_EQ(parse_integer<4>("0x1f"), (ff::Limbs<4>{31, 0, 0, 0}));
  EXPECT_EQ(parse_integer<4>("0XfF"), (ff::Limbs<4>{255, 0, 0, 0}));
  EXPECT_EQ(*parse_fr("7"), ff::Fr::from_u64(7));
  // r − 1 is the largest element, r itself is rejected.
  const std::string r_minus_1 = "52435875175126190479447740508185965837690552500527637822603658699938581184512";
  EXPECT_EQ(*parse_fr(r_minus_1), -ff::Fr::one());
  EXPECT_EQ(to_decimal(-ff::Fr::one()), r_minus_1);
  EXPECT_FALSE(parse_fr("52435875175126190479447740508185965837690552500527637822603658699938581184513"));
  EXPECT_EQ(to_decimal(-ff::Fp::one()),
            "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894"
            "272559786");
}

TEST(Decimal, RejectsMalformedText) {
  for (const char* bad : {"", "-1", "1.0", " 1", "1 ", "0x", "12a", "0xg", "+3"}) {
    EXPECT_FALSE(parse_integer<4>(bad)) << bad;
  }
  // 2^256 does not fit four limbs.
  EXPECT_FALSE(parse_integer<4>("115792089237316195423570985008687907853269984665640564039457584007913129639936"));
  EXPECT_TRUE(parse_integer<4>("115792089237316195423570985008687907853269984665640564039457584007913129639935"));
}

}  // namespace
}  // namespace zkpipe::formats
