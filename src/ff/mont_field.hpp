// Prime field in Montgomery form, shared by Fp and Fr (sppark-style: one template,
// a parameter struct per field). Elements hold a·R mod p with R = 2^(64·N).
//
// The multiplication is CIOS with the "no-carry" shortcut, valid because both
// BLS12-381 moduli leave the top bit of their top limb clear; the static_assert
// below keeps that assumption honest.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>

#include "ff/cpu_features.hpp"
#include "ff/limbs.hpp"
#include "ff/mod_add_x86.hpp"
#include "ff/mont_mul_adx.hpp"
#include "ff/safegcd.hpp"

namespace zkpipe::ff {

namespace detail {

// -p^{-1} mod 2^64 by Newton iteration (each step doubles the correct bits).
constexpr u64 neg_inverse_mod_2_64(u64 p0) {
  u64 x = 1;
  for (int i = 0; i < 7; ++i) x *= 2 - p0 * x;
  return ~x + 1;
}

// 2^k mod p by repeated doubling; only used at compile time.
template <std::size_t N>
constexpr Limbs<N> pow2_mod(std::size_t k, const Limbs<N>& p) {
  Limbs<N> r{};
  r[0] = 1;
  for (std::size_t i = 0; i < k; ++i) {
    u64 carry = 0;
    for (std::size_t j = 0; j < N; ++j) {
      u64 top = r[j] >> 63;
      r[j] = (r[j] << 1) | carry;
      carry = top;
    }
    if (carry || !limbs_less(r, p)) limbs_sub(r, r, p);
  }
  return r;
}

template <std::size_t N>
constexpr Limbs<N> sub_small(const Limbs<N>& a, u64 b) {
  Limbs<N> r{};
  Limbs<N> bb{};
  bb[0] = b;
  limbs_sub(r, a, bb);
  return r;
}

template <std::size_t N>
constexpr Limbs<N> add_small(const Limbs<N>& a, u64 b) {
  Limbs<N> r{};
  Limbs<N> bb{};
  bb[0] = b;
  limbs_add(r, a, bb);
  return r;
}

template <std::size_t N>
constexpr std::size_t two_adicity(const Limbs<N>& p) {
  Limbs<N> t = sub_small(p, 1);
  std::size_t s = 0;
  while (!limbs_bit(t, 0)) {
    limbs_shr1(t);
    ++s;
  }
  return s;
}

template <std::size_t N>
constexpr Limbs<N> shr(Limbs<N> a, std::size_t k) {
  for (std::size_t i = 0; i < k; ++i) limbs_shr1(a);
  return a;
}

}  // namespace detail

template <class Params>
class MontField {
 public:
  static constexpr std::size_t kLimbs = Params::kLimbs;
  static constexpr std::size_t kBytes = 8 * kLimbs;
  using Repr = Limbs<kLimbs>;

  static constexpr Repr kModulus = Params::kModulus;
  static constexpr u64 kInv = detail::neg_inverse_mod_2_64(kModulus[0]);
  static constexpr Repr kR = detail::pow2_mod(64 * kLimbs, kModulus);
  static constexpr Repr kR2 = detail::pow2_mod(128 * kLimbs, kModulus);
  static constexpr Repr kR3 = detail::pow2_mod(192 * kLimbs, kModulus);
  static constexpr std::size_t kBits = limbs_bit_length(kModulus);
  static constexpr std::size_t kTwoAdicity = detail::two_adicity(kModulus);
  // (p - 1) / 2^s: the odd part of the multiplicative group order.
  static constexpr Repr kOddPart = detail::shr(detail::sub_small(kModulus, 1), kTwoAdicity);
  static constexpr Repr kPMinus2 = detail::sub_small(kModulus, 2);
  static constexpr Repr kHalfPMinus1 = detail::shr(detail::sub_small(kModulus, 1), 1);

  static_assert(kModulus[kLimbs - 1] < (~u64{0} >> 1) - 1,
                "no-carry Montgomery multiplication needs a spare top bit");

  constexpr MontField() = default;

  static constexpr MontField zero() { return MontField(); }
  static constexpr MontField one() { return from_mont(kR); }

  // Wraps limbs that are already in Montgomery form (no check).
  static constexpr MontField from_mont(const Repr& m) {
    MontField r;
    r.v_ = m;
    return r;
  }

  static constexpr MontField from_u64(u64 x) {
    Repr a{};
    a[0] = x;
    return from_mont(a) * from_mont(kR2);
  }

  // Canonical integer < p into the field; nullopt when the integer is >= p.
  static constexpr std::optional<MontField> from_canonical(const Repr& a) {
    if (!limbs_less(a, kModulus)) return std::nullopt;
    return from_mont(a) * from_mont(kR2);
  }

  // Any integer < 2^(64N), reduced mod p (used for hashing and sampling scalars).
  static constexpr MontField from_reduced(const Repr& a) {
    Repr t = a;
    while (!limbs_less(t, kModulus)) limbs_sub(t, t, kModulus);
    return from_mont(t) * from_mont(kR2);
  }

  static constexpr std::optional<MontField> from_bytes_be(std::span<const std::uint8_t, kBytes> b) {
    return from_canonical(limbs_from_be_bytes<kLimbs>(b));
  }

  // Uniform element by rejection sampling on the bit length of p.
  template <class Rng>
  static MontField random(Rng& rng) {
    for (;;) {
      Repr a{};
      for (auto& limb : a) limb = static_cast<u64>(rng());
      if constexpr (kBits % 64 != 0) a[kLimbs - 1] &= (u64{1} << (kBits % 64)) - 1;
      if (limbs_less(a, kModulus)) return from_mont(a);
    }
  }

  constexpr const Repr& mont() const { return v_; }

  constexpr Repr to_canonical() const {
    Repr one{};
    one[0] = 1;
    return (*this * from_mont(one)).v_;
  }

  constexpr void to_bytes_be(std::span<std::uint8_t, kBytes> out) const {
    limbs_to_be_bytes<kLimbs>(to_canonical(), out);
  }

  constexpr bool is_zero() const { return limbs_is_zero(v_); }
  constexpr bool is_one() const { return v_ == kR; }
  // Limb by limb rather than std::array's memcmp call: bucket additions compare
  // coordinates on every step.
  constexpr bool operator==(const MontField& o) const {
    u64 diff = 0;
    for (std::size_t i = 0; i < kLimbs; ++i) diff |= v_[i] ^ o.v_[i];
    return diff == 0;
  }

  // Lexicographic "largest" as used by the zcash sort flag: x > (p-1)/2.
  constexpr bool is_lexicographically_largest() const {
    return limbs_less(kHalfPMinus1, to_canonical());
  }

  // Addition and subtraction take the assembly path at run time on x86-64 (plain
  // instructions, no CPU check needed); the portable code serves constant evaluation.
  [[gnu::always_inline]] constexpr MontField operator+(const MontField& o) const {
#ifdef ZKPIPE_FF_X86_64
    if constexpr (detail::kHasAsmModAdd<kLimbs>) {
      if (!std::is_constant_evaluated()) {
        return from_mont(detail::mod_add_x86<kLimbs, kModulus>(v_, o.v_));
      }
    }
#endif
    return add_portable(o);
  }

  [[gnu::always_inline]] constexpr MontField operator-(const MontField& o) const {
#ifdef ZKPIPE_FF_X86_64
    if constexpr (detail::kHasAsmModAdd<kLimbs>) {
      if (!std::is_constant_evaluated()) {
        return from_mont(detail::mod_sub_x86<kLimbs, kModulus>(v_, o.v_));
      }
    }
#endif
    return sub_portable(o);
  }

  constexpr MontField add_portable(const MontField& o) const {
    MontField r;
    limbs_add(r.v_, v_, o.v_);
    r.reduce_once();
    return r;
  }

  constexpr MontField sub_portable(const MontField& o) const {
    MontField r;
    u64 borrow = limbs_sub(r.v_, v_, o.v_);
    // Add p back exactly when the subtraction borrowed, without a branch.
    u64 mask = u64{0} - borrow;
    u64 carry = 0;
    for (std::size_t i = 0; i < kLimbs; ++i) r.v_[i] = add_carry(r.v_[i], kModulus[i] & mask, carry);
    return r;
  }

  constexpr MontField operator-() const { return zero() - *this; }
  constexpr MontField dbl() const { return *this + *this; }

  // Dispatches to the mulx/adcx/adox kernel when the CPU has BMI2 and ADX; the
  // portable path serves constant evaluation and every other machine. Always
  // inlined: a 48-byte result returned through memory and copied with wider loads
  // than the stores that wrote it would stall store-to-load forwarding.
  [[gnu::always_inline]] constexpr MontField operator*(const MontField& o) const {
#ifdef ZKPIPE_FF_X86_64
    if constexpr (detail::kHasAdxMontMul<kLimbs>) {
      if (!std::is_constant_evaluated() && kCpuHasBmi2Adx) return mul_bmi2_adx(o);
    }
#endif
    return mul_portable(o);
  }

#ifdef ZKPIPE_FF_X86_64
  // The assembly product; callable only where kCpuHasBmi2Adx holds (tests use it to
  // check this path against the portable one).
  [[gnu::always_inline]] MontField mul_bmi2_adx(const MontField& o) const
    requires detail::kHasAdxMontMul<kLimbs>
  {
    return from_mont(detail::mont_mul_adx<kLimbs, kModulus, kInv>(v_, o.v_));
  }
#endif

  // CIOS in portable C++ with 128-bit products.
  constexpr MontField mul_portable(const MontField& o) const {
    Repr t{};
#pragma GCC unroll 8
    for (std::size_t i = 0; i < kLimbs; ++i) {
      u64 a_hi = 0;
      t[0] = mul_add(v_[0], o.v_[i], t[0], a_hi);
      u64 m = t[0] * kInv;
      u64 c_hi = 0;
      mul_add(m, kModulus[0], t[0], c_hi);
#pragma GCC unroll 8
      for (std::size_t j = 1; j < kLimbs; ++j) {
        t[j] = mul_add(v_[j], o.v_[i], t[j], a_hi);
        t[j - 1] = mul_add(m, kModulus[j], t[j], c_hi);
      }
      t[kLimbs - 1] = a_hi + c_hi;
    }
    MontField r = from_mont(t);
    r.reduce_once();
    return r;
  }

  constexpr MontField square() const { return *this * *this; }

  constexpr MontField& operator+=(const MontField& o) { return *this = *this + o; }
  constexpr MontField& operator-=(const MontField& o) { return *this = *this - o; }
  constexpr MontField& operator*=(const MontField& o) { return *this = *this * o; }

  // this^e for a public exponent (left to right, time depends on e only).
  template <std::size_t M>
  constexpr MontField pow(const Limbs<M>& e) const {
    MontField r = one();
    for (std::size_t i = limbs_bit_length(e); i-- > 0;) {
      r = r.square();
      if (limbs_bit(e, i)) r *= *this;
    }
    return r;
  }

  constexpr MontField pow(u64 e) const { return pow(Limbs<1>{e}); }

  // Fermat inverse: a fixed sequence of operations, so safe for secret values.
  // Inverse of zero is zero.
  constexpr MontField inverse_ct() const { return pow(kPMinus2); }

  // Inverse for public values (time depends on the value): safegcd on the
  // Montgomery representative a·R gives a^{-1}·R^{-1}; a Montgomery product with
  // R^3 turns that into a^{-1}·R. Inverse of zero is zero.
  constexpr MontField inverse() const {
    if (is_zero()) return zero();
    const Repr inv = detail::inverse_vartime<kLimbs, kModulus, kBits>(v_);
    return from_mont(inv) * from_mont(kR3);
  }

  // 1 if a square, -1 if not, 0 for zero.
  constexpr int legendre() const {
    MontField t = pow(kHalfPMinus1);
    if (t.is_zero()) return 0;
    return t.is_one() ? 1 : -1;
  }

  // Tonelli–Shanks with the field's two-adicity (for p ≡ 3 mod 4 it reduces to one
  // exponentiation). nullopt when not a square.
  constexpr std::optional<MontField> sqrt() const {
    if (is_zero()) return zero();
    MontField z = from_u64(Params::kNonResidue).pow(kOddPart);
    MontField w = pow(detail::shr(detail::sub_small(kOddPart, 1), 1));  // a^((t-1)/2)
    MontField x = *this * w;                                            // a^((t+1)/2)
    MontField b = x * w;                                                // a^t
    std::size_t m = kTwoAdicity;
    while (!b.is_one()) {
      std::size_t k = 0;
      MontField b2 = b;
      while (!b2.is_one()) {
        b2 = b2.square();
        if (++k == m) return std::nullopt;
      }
      MontField c = z;
      for (std::size_t i = 0; i + 1 < m - k; ++i) c = c.square();
      z = c.square();
      x *= c;
      b *= z;
      m = k;
    }
    return x;
  }

 private:
  constexpr void reduce_once() {
    Repr t{};
    u64 borrow = limbs_sub(t, v_, kModulus);
    // Keep v when v < p (the subtraction borrowed), else take v - p.
    u64 keep = u64{0} - borrow;
    for (std::size_t i = 0; i < kLimbs; ++i) v_[i] = (v_[i] & keep) | (t[i] & ~keep);
  }

  Repr v_{};
};

}  // namespace zkpipe::ff
