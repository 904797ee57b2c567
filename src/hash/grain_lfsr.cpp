#include "hash/grain_lfsr.hpp"

#include <stdexcept>

namespace zkpipe::hash::poseidon {

namespace {

constexpr unsigned kPrimeField = 1;

}  // namespace

GrainLfsr::GrainLfsr(unsigned field_bits, unsigned t, unsigned full_rounds, unsigned partial_rounds,
                     unsigned sbox_field)
    : field_bits_(field_bits) {
  if (field_bits > 256) throw std::invalid_argument("GrainLfsr: at most 256-bit fields");
  if (sbox_field > 15) throw std::invalid_argument("GrainLfsr: the S-box field is 4 bits");
  unsigned pos = 0;
  auto push = [&](unsigned value, unsigned width) {
    for (unsigned i = width; i-- > 0;) state_[pos++] = static_cast<std::uint8_t>((value >> i) & 1);
  };
  push(kPrimeField, 2);
  push(sbox_field, 4);
  push(field_bits, 12);
  push(t, 12);
  push(full_rounds, 10);
  push(partial_rounds, 10);
  while (pos < 80) state_[pos++] = 1;
  for (int i = 0; i < 160; ++i) step();
}

// b_{i+80} = b_{i+62} ⊕ b_{i+51} ⊕ b_{i+38} ⊕ b_{i+23} ⊕ b_{i+13} ⊕ b_i
bool GrainLfsr::step() {
  auto at = [&](unsigned k) { return state_[(head_ + k) % 80]; };
  const std::uint8_t bit = at(62) ^ at(51) ^ at(38) ^ at(23) ^ at(13) ^ at(0);
  state_[head_] = bit;
  head_ = (head_ + 1) % 80;
  return bit != 0;
}

bool GrainLfsr::next_bit() {
  for (;;) {
    const bool keep = step();
    const bool bit = step();
    if (keep) return bit;
  }
}

ff::Limbs<4> GrainLfsr::next_integer() {
  ff::Limbs<4> v{};
  for (unsigned i = field_bits_; i-- > 0;) {
    if (next_bit()) v[i / 64] |= std::uint64_t{1} << (i % 64);
  }
  return v;
}

ff::Fr GrainLfsr::next_fr_rejection_sampled() {
  for (;;) {
    if (auto fr = ff::Fr::from_canonical(next_integer())) return *fr;
  }
}

ff::Fr GrainLfsr::next_fr_reduced() { return ff::Fr::from_reduced(next_integer()); }

}  // namespace zkpipe::hash::poseidon
