// Branch-free selection between field elements, for code that handles secrets.
#pragma once

#include "ff/fp2.hpp"
#include "ff/limbs.hpp"
#include "ff/mont_field.hpp"

namespace zkpipe::ec {

// Hides a value from the optimizer so that it cannot prove a mask is 0 or all ones
// and turn the selection back into a branch.
inline ff::u64 value_barrier(ff::u64 v) {
  asm volatile("" : "+r"(v));
  return v;
}

// All ones when a == b, zero otherwise, without a branch.
inline ff::u64 ct_eq_mask(ff::u64 a, ff::u64 b) {
  ff::u64 d = a ^ b;
  // (d | -d) has its top bit set exactly when d != 0.
  ff::u64 nonzero = (d | (ff::u64{0} - d)) >> 63;
  return value_barrier(nonzero - 1);
}

// mask all ones -> a, mask zero -> b.
template <class Params>
ff::MontField<Params> ct_select(ff::u64 mask, const ff::MontField<Params>& a,
                                const ff::MontField<Params>& b) {
  typename ff::MontField<Params>::Repr r{};
  for (std::size_t i = 0; i < r.size(); ++i) {
    r[i] = (a.mont()[i] & mask) | (b.mont()[i] & ~mask);
  }
  return ff::MontField<Params>::from_mont(r);
}

inline ff::Fp2 ct_select(ff::u64 mask, const ff::Fp2& a, const ff::Fp2& b) {
  return {ct_select(mask, a.c0, b.c0), ct_select(mask, a.c1, b.c1)};
}

}  // namespace zkpipe::ec
