// Variable-time modular inversion by Bernstein–Yang "safegcd" divsteps, batched
// 62 at a time, with the variable-time shortcuts of the libsecp256k1 write-up
// ("safegcd_implementation.md"): skip runs of zero bits of g at once, and cancel
// up to 6 low bits of g per step with a small inverse of f mod 64.
//
// Only for public inputs: the running time depends on the value.
//
// Numbers live in a signed base-2^62 form (every limb but the top one in
// [0, 2^62), the top limb signed) so that 62 divsteps fit one 64-bit word of
// f and g, and the 2x2 transition matrices (entries of magnitude <= 2^62) can be
// applied with 128-bit products without losing carries.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "ff/limbs.hpp"

namespace zkpipe::ff::detail {

using i64 = std::int64_t;
using i128 = __int128;

inline constexpr u64 kMask62 = (u64{1} << 62) - 1;

// Limbs of 62 bits enough for values in (-2M, 2M) with M < 2^bits, plus a sign.
constexpr std::size_t signed62_limbs(std::size_t bits) { return (bits + 2 + 61) / 62; }

template <std::size_t L>
using Signed62 = std::array<i64, L>;

// The 62 divsteps' effect, scaled by 2^62: [f', g'] · 2^62 = [[u, v], [q, r]] · [f, g].
struct Transition {
  i64 u, v, q, r;
};

template <std::size_t L, std::size_t N>
constexpr Signed62<L> to_signed62(const Limbs<N>& a) {
  Signed62<L> r{};
  for (std::size_t i = 0; i < L; ++i) {
    const std::size_t bit = 62 * i;
    const std::size_t word = bit / 64;
    const std::size_t shift = bit % 64;
    if (word >= N) break;
    u64 v = a[word] >> shift;
    if (shift > 2 && word + 1 < N) v |= a[word + 1] << (64 - shift);
    r[i] = static_cast<i64>(v & kMask62);
  }
  return r;
}

// Inverse of to_signed62 for values in [0, 2^(64N)).
template <std::size_t N, std::size_t L>
constexpr Limbs<N> from_signed62(const Signed62<L>& a) {
  Limbs<N> r{};
  for (std::size_t i = 0; i < L; ++i) {
    const u64 v = static_cast<u64>(a[i]) & kMask62;
    const std::size_t bit = 62 * i;
    const std::size_t word = bit / 64;
    const std::size_t shift = bit % 64;
    if (word >= N) break;
    r[word] |= v << shift;
    if (shift > 2 && word + 1 < N) r[word + 1] |= v >> (64 - shift);
  }
  return r;
}

template <std::size_t L>
constexpr bool signed62_is_negative(const Signed62<L>& a) {
  return a[L - 1] < 0;
}

template <std::size_t L>
constexpr bool signed62_is_zero(const Signed62<L>& a) {
  i64 acc = 0;
  for (i64 limb : a) acc |= limb;
  return acc == 0;
}

// a + sign·b with sign ±1, carries normalized back into 62-bit limbs.
template <std::size_t L>
constexpr Signed62<L> signed62_add(const Signed62<L>& a, const Signed62<L>& b, i64 sign) {
  Signed62<L> r{};
  i64 carry = 0;
  for (std::size_t i = 0; i + 1 < L; ++i) {
    carry += a[i] + sign * b[i];
    r[i] = static_cast<i64>(static_cast<u64>(carry) & kMask62);
    carry >>= 62;
  }
  r[L - 1] = a[L - 1] + sign * b[L - 1] + carry;
  return r;
}

// M^{-1} mod 2^62 by Newton iteration (each step doubles the correct bits).
constexpr u64 inverse_mod_2_62(u64 m0) {
  u64 x = 1;
  for (int i = 0; i < 6; ++i) x *= 2 - m0 * x;
  return x & kMask62;
}

// 62 divsteps on the low words of f (odd) and g. eta is -delta of the paper.
constexpr Transition divsteps_62_var(i64& eta, u64 f, u64 g) {
  u64 u = 1, v = 0, q = 0, r = 1;
  int left = 62;
  for (;;) {
    // Strip trailing zeros of g in one go; a sentinel bit caps the count at `left`.
    const int zeros = std::countr_zero(g | (~u64{0} << left));
    g >>= zeros;
    u <<= zeros;
    v <<= zeros;
    eta -= zeros;
    left -= zeros;
    if (left == 0) break;
    if (eta < 0) {
      eta = -eta;
      const u64 f_old = f, u_old = u, v_old = v;
      f = g;
      u = q;
      v = r;
      g = u64{0} - f_old;
      q = u64{0} - u_old;
      r = u64{0} - v_old;
    }
    // Cancel as many low bits of g as allowed at once: w = -g/f mod 2^limit, using
    // f·(f² - 2) ≡ -f^{-1} (mod 64) for odd f. At most eta + 1 bits, since eta's
    // sign may flip after that many steps, and never more than the steps left.
    const int limit = std::min({static_cast<int>(eta) + 1, left, 6});
    const u64 mask = (~u64{0} >> (64 - limit));
    const u64 w = (f * g * (f * f - 2)) & mask;
    g += f * w;
    q += u * w;
    r += v * w;
  }
  return {static_cast<i64>(u), static_cast<i64>(v), static_cast<i64>(q), static_cast<i64>(r)};
}

// [f, g] <- t · [f, g] / 2^62; the division is exact by construction of t.
template <std::size_t L>
constexpr void apply_to_fg(Signed62<L>& f, Signed62<L>& g, const Transition& t) {
  i128 cf = static_cast<i128>(t.u) * f[0] + static_cast<i128>(t.v) * g[0];
  i128 cg = static_cast<i128>(t.q) * f[0] + static_cast<i128>(t.r) * g[0];
  cf >>= 62;
  cg >>= 62;
  for (std::size_t i = 1; i < L; ++i) {
    cf += static_cast<i128>(t.u) * f[i] + static_cast<i128>(t.v) * g[i];
    cg += static_cast<i128>(t.q) * f[i] + static_cast<i128>(t.r) * g[i];
    f[i - 1] = static_cast<i64>(static_cast<u64>(cf) & kMask62);
    g[i - 1] = static_cast<i64>(static_cast<u64>(cg) & kMask62);
    cf >>= 62;
    cg >>= 62;
  }
  f[L - 1] = static_cast<i64>(cf);
  g[L - 1] = static_cast<i64>(cg);
}

// [d, e] <- (t · [d, e] + [md, me] · M) / 2^62 with md, me chosen to make the
// division exact and to keep d, e in (-2M, M) (a negative input pre-adds M times
// its row's coefficient, the libsecp256k1 range argument).
template <std::size_t L>
constexpr void apply_to_de(Signed62<L>& d, Signed62<L>& e, const Transition& t,
                           const Signed62<L>& m, u64 m_inv62) {
  const i64 d_sign = d[L - 1] >> 63;
  const i64 e_sign = e[L - 1] >> 63;
  i64 md = (t.u & d_sign) + (t.v & e_sign);
  i64 me = (t.q & d_sign) + (t.r & e_sign);
  i128 cd = static_cast<i128>(t.u) * d[0] + static_cast<i128>(t.v) * e[0];
  i128 ce = static_cast<i128>(t.q) * d[0] + static_cast<i128>(t.r) * e[0];
  md -= static_cast<i64>((m_inv62 * static_cast<u64>(cd) + static_cast<u64>(md)) & kMask62);
  me -= static_cast<i64>((m_inv62 * static_cast<u64>(ce) + static_cast<u64>(me)) & kMask62);
  cd += static_cast<i128>(m[0]) * md;
  ce += static_cast<i128>(m[0]) * me;
  cd >>= 62;
  ce >>= 62;
  for (std::size_t i = 1; i < L; ++i) {
    cd += static_cast<i128>(t.u) * d[i] + static_cast<i128>(t.v) * e[i] +
          static_cast<i128>(m[i]) * md;
    ce += static_cast<i128>(t.q) * d[i] + static_cast<i128>(t.r) * e[i] +
          static_cast<i128>(m[i]) * me;
    d[i - 1] = static_cast<i64>(static_cast<u64>(cd) & kMask62);
    e[i - 1] = static_cast<i64>(static_cast<u64>(ce) & kMask62);
    cd >>= 62;
    ce >>= 62;
  }
  d[L - 1] = static_cast<i64>(cd);
  e[L - 1] = static_cast<i64>(ce);
}

// x^{-1} mod M for 0 < x < M, M odd and of kBits bits. Variable time.
template <std::size_t N, const Limbs<N>& kM, std::size_t kBits>
constexpr Limbs<N> inverse_vartime(const Limbs<N>& x) {
  constexpr std::size_t L = signed62_limbs(kBits);
  constexpr Signed62<L> m = to_signed62<L>(kM);
  constexpr u64 m_inv62 = inverse_mod_2_62(kM[0]);

  Signed62<L> f = m;
  Signed62<L> g = to_signed62<L>(x);
  Signed62<L> d{};
  Signed62<L> e{};
  e[0] = 1;
  i64 eta = -1;
  // Invariants: d·x ≡ f and e·x ≡ g (mod M); f stays odd; gcd(f, g) = gcd(M, x) = 1.
  while (!signed62_is_zero(g)) {
    const Transition t = divsteps_62_var(eta, static_cast<u64>(f[0]), static_cast<u64>(g[0]));
    apply_to_de(d, e, t, m, m_inv62);
    apply_to_fg(f, g, t);
  }
  // Now f = ±1 = d·x (mod M): fold f's sign into d, then bring d into [0, M).
  if (signed62_is_negative(f)) d = signed62_add(Signed62<L>{}, d, -1);
  while (signed62_is_negative(d)) d = signed62_add(d, m, 1);
  for (;;) {
    const Signed62<L> reduced = signed62_add(d, m, -1);
    if (signed62_is_negative(reduced)) break;
    d = reduced;
  }
  return from_signed62<N>(d);
}

}  // namespace zkpipe::ff::detail
