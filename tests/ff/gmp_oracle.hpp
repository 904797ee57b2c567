// GMP as the reference: an owning mpz wrapper and conversions to and from limbs.
#pragma once

#include <gmp.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ff/limbs.hpp"

namespace zkpipe::ff::testing {

class Mpz {
 public:
  Mpz() { mpz_init(v_); }
  explicit Mpz(unsigned long x) { mpz_init_set_ui(v_, x); }
  Mpz(const Mpz& o) { mpz_init_set(v_, o.v_); }
  Mpz& operator=(const Mpz& o) {
    mpz_set(v_, o.v_);
    return *this;
  }
  ~Mpz() { mpz_clear(v_); }

  template <std::size_t N>
  static Mpz from_limbs(const Limbs<N>& a) {
    Mpz r;
    mpz_import(r.v_, N, -1, sizeof(u64), 0, 0, a.data());
    return r;
  }

  // The value must be non-negative and fit N limbs.
  template <std::size_t N>
  Limbs<N> to_limbs() const {
    Limbs<N> r{};
    std::size_t count = 0;
    mpz_export(r.data(), &count, -1, sizeof(u64), 0, 0, v_);
    return r;
  }

  mpz_t& get() { return v_; }
  const mpz_t& get() const { return v_; }

  friend bool operator==(const Mpz& a, const Mpz& b) { return mpz_cmp(a.v_, b.v_) == 0; }
  friend bool operator<(const Mpz& a, const Mpz& b) { return mpz_cmp(a.v_, b.v_) < 0; }

  std::string str() const {
    std::vector<char> buf(mpz_sizeinbase(v_, 16) + 2);
    mpz_get_str(buf.data(), 16, v_);
    return std::string("0x") + buf.data();
  }

 private:
  mpz_t v_;
};

// Arithmetic mod m, each result reduced into [0, m).
inline Mpz mod_add(const Mpz& a, const Mpz& b, const Mpz& m) {
  Mpz r;
  mpz_add(r.get(), a.get(), b.get());
  mpz_mod(r.get(), r.get(), m.get());
  return r;
}

inline Mpz mod_sub(const Mpz& a, const Mpz& b, const Mpz& m) {
  Mpz r;
  mpz_sub(r.get(), a.get(), b.get());
  mpz_mod(r.get(), r.get(), m.get());
  return r;
}

inline Mpz mod_mul(const Mpz& a, const Mpz& b, const Mpz& m) {
  Mpz r;
  mpz_mul(r.get(), a.get(), b.get());
  mpz_mod(r.get(), r.get(), m.get());
  return r;
}

inline Mpz mod_pow(const Mpz& a, const Mpz& e, const Mpz& m) {
  Mpz r;
  mpz_powm(r.get(), a.get(), e.get(), m.get());
  return r;
}

// Inverse mod m; zero maps to zero (the convention of the field code).
inline Mpz mod_inv(const Mpz& a, const Mpz& m) {
  Mpz r;
  if (mpz_sgn(a.get()) != 0) mpz_invert(r.get(), a.get(), m.get());
  return r;
}

template <std::size_t N>
Limbs<N> random_limbs(std::mt19937_64& rng) {
  Limbs<N> a{};
  for (auto& limb : a) limb = rng();
  return a;
}

}  // namespace zkpipe::ff::testing
