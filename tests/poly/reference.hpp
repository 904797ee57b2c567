// Slow, obviously correct references the NTT tests compare against.
#pragma once

#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ff/fr.hpp"
#include "poly/bit_reverse.hpp"

namespace zkpipe::poly::test {

using ff::Fr;

inline std::vector<Fr> random_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Fr> v(n);
  for (auto& x : v) x = Fr::random(rng);
  return v;
}

// Σ a_i x^i by Horner's rule.
inline Fr evaluate(const std::vector<Fr>& coefficients, const Fr& x) {
  Fr acc = Fr::zero();
  for (std::size_t i = coefficients.size(); i-- > 0;) acc = acc * x + coefficients[i];
  return acc;
}

// out_j = Σ_i a_i (shift·root^j)^i: the O(n²) transform.
inline std::vector<Fr> dft(const std::vector<Fr>& a, const Fr& root, const Fr& shift = Fr::one()) {
  std::vector<Fr> out(a.size());
  Fr point = shift;
  for (auto& y : out) {
    y = evaluate(a, point);
    point *= root;
  }
  return out;
}

inline std::vector<Fr> scaled(std::vector<Fr> v, const Fr& factor) {
  for (auto& x : v) x *= factor;
  return v;
}

// Element i multiplied by base^i.
inline std::vector<Fr> scaled_by_powers(std::vector<Fr> v, const Fr& base) {
  Fr factor = Fr::one();
  for (auto& x : v) {
    x *= factor;
    factor *= base;
  }
  return v;
}

inline std::vector<Fr> bit_reversed(const std::vector<Fr>& v) {
  std::vector<Fr> out(v.size());
  unsigned log_n = 0;
  while ((std::size_t{1} << log_n) < v.size()) ++log_n;
  for (std::size_t i = 0; i < v.size(); ++i) out[reverse_bits(i, log_n)] = v[i];
  return out;
}

// Equality with the first differing index in the failure message.
inline testing::AssertionResult same_values(const std::vector<Fr>& actual,
                                            const std::vector<Fr>& expected) {
  if (actual.size() != expected.size()) {
    return testing::AssertionFailure() << "sizes " << actual.size() << " vs " << expected.size();
  }
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (!(actual[i] == expected[i])) {
      return testing::AssertionFailure() << "first difference at index " << i << " of "
                                         << actual.size();
    }
  }
  return testing::AssertionSuccess();
}

}  // namespace zkpipe::poly::test
