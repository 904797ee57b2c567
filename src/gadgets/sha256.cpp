#include "gadgets/sha256.hpp"

#include <stdexcept>

#include "hash/sha256_constants.hpp"

namespace zkpipe::r1cs::sha256 {

namespace {

UInt32 xor3(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  return xor_of(cs, xor_of(cs, a, b), c);
}

UInt32 ch(ConstraintSystem& cs, const UInt32& e, const UInt32& f, const UInt32& g) {
  const bool any_constant = (e.constant_mask() | f.constant_mask() | g.constant_mask()) != 0;
  if (cs.values_only() && !any_constant) {
    // One new bit per position.
    const std::uint32_t value = (e.value() & f.value()) | (~e.value() & g.value());
    cs.alloc_bit_values(value, 32);
    cs.skip_constraints(32);
    return UInt32::of_values(value, 0);
  }
  const auto x = e.bits_le();
  const auto y = f.bits_le();
  const auto z = g.bits_le();
  std::array<Boolean, 32> bits;
  for (unsigned i = 0; i < 32; ++i) bits[i] = sha256_ch(cs, x[i], y[i], z[i]);
  return UInt32::from_bits_le(bits);
}

UInt32 maj(ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  const bool any_constant = (a.constant_mask() | b.constant_mask() | c.constant_mask()) != 0;
  if (cs.values_only() && !any_constant) {
    // Two new bits per position, in allocation order: b·c, then the majority.
    const std::uint32_t bc = b.value() & c.value();
    const std::uint32_t value = (a.value() & (b.value() | c.value())) | bc;
    std::uint64_t interleaved = 0;
    for (unsigned i = 0; i < 32; ++i) {
      interleaved |= static_cast<std::uint64_t>((bc >> i) & 1) << (2 * i);
      interleaved |= static_cast<std::uint64_t>((value >> i) & 1) << (2 * i + 1);
    }
    cs.alloc_bit_values(interleaved, 64);
    cs.skip_constraints(64);
    return UInt32::of_values(value, 0);
  }
  const auto x = a.bits_le();
  const auto y = b.bits_le();
  const auto z = c.bits_le();
  std::array<Boolean, 32> bits;
  for (unsigned i = 0; i < 32; ++i) bits[i] = sha256_maj(cs, x[i], y[i], z[i]);
  return UInt32::from_bits_le(bits);
}

std::array<UInt32, 64> message_schedule(ConstraintSystem& cs, std::span<const Boolean> block) {
  auto s = cs.scope("schedule");
  std::array<UInt32, 64> w;
  for (std::size_t t = 0; t < 16; ++t) w[t] = UInt32::from_bits_be(block.subspan(32 * t).first<32>());
  for (std::size_t t = 16; t < 64; ++t) {
    auto st = cs.scope("word", t);
    const UInt32 s0 = xor3(cs, w[t - 15].rotr(7), w[t - 15].rotr(18), w[t - 15].shr(3));
    const UInt32 s1 = xor3(cs, w[t - 2].rotr(17), w[t - 2].rotr(19), w[t - 2].shr(10));
    const std::array<UInt32, 4> terms = {s1, w[t - 7], s0, w[t - 16]};
    w[t] = UInt32::addmany(cs, terms);
  }
  return w;
}

}  // namespace

WordState initial_state() {
  WordState s;
  for (std::size_t i = 0; i < 8; ++i) s[i] = UInt32::constant(kInitialState[i]);
  return s;
}

WordState compress(ConstraintSystem& cs, std::span<const Boolean> block, const WordState& state) {
  if (block.size() != 512) throw std::invalid_argument("sha256::compress: a block is 512 bits");
  const std::array<UInt32, 64> w = message_schedule(cs, block);
  auto [a, b, c, d, e, f, g, h] = state;
  for (std::size_t t = 0; t < 64; ++t) {
    auto sr = cs.scope("round", t);
    const UInt32 big_s1 = xor3(cs, e.rotr(6), e.rotr(11), e.rotr(25));
    UInt32 ch_efg = [&] {
      auto s = cs.scope("ch");
      return ch(cs, e, f, g);
    }();
    const UInt32 big_s0 = xor3(cs, a.rotr(2), a.rotr(13), a.rotr(22));
    UInt32 maj_abc = [&] {
      auto s = cs.scope("maj");
      return maj(cs, a, b, c);
    }();
    const UInt32 k = UInt32::constant(kRoundConstants[t]);
    // T1 = h + Σ1 + ch + K + W is never materialized: each new word adds its
    // operands in one addmany, which costs one packing constraint instead of two.
    const std::array<UInt32, 6> new_e_terms = {d, h, big_s1, ch_efg, k, w[t]};
    const std::array<UInt32, 7> new_a_terms = {h, big_s1, ch_efg, k, w[t], big_s0, maj_abc};
    h = g;
    g = f;
    f = e;
    e = UInt32::addmany(cs, new_e_terms);
    d = c;
    c = b;
    b = a;
    a = UInt32::addmany(cs, new_a_terms);
  }
  auto sf = cs.scope("final add");
  const WordState add = {a, b, c, d, e, f, g, h};
  WordState out;
  for (std::size_t i = 0; i < 8; ++i) {
    const std::array<UInt32, 2> terms = {state[i], add[i]};
    out[i] = UInt32::addmany(cs, terms);
  }
  return out;
}

std::vector<Boolean> hash(ConstraintSystem& cs, std::span<const Boolean> message) {
  auto s = cs.scope("sha256");
  std::vector<Boolean> padded(message.begin(), message.end());
  padded.push_back(Boolean::constant(true));
  while (padded.size() % 512 != 448) padded.push_back(Boolean::constant(false));
  const std::uint64_t bit_length = message.size();
  for (int i = 63; i >= 0; --i) padded.push_back(Boolean::constant(((bit_length >> i) & 1) != 0));

  WordState state = initial_state();
  for (std::size_t block = 0; block < padded.size() / 512; ++block) {
    auto sb = cs.scope("block", block);
    state = compress(cs, std::span<const Boolean>(padded).subspan(512 * block, 512), state);
  }
  std::vector<Boolean> digest;
  digest.reserve(256);
  for (const UInt32& word : state) {
    for (const Boolean& bit : word.bits_be()) digest.push_back(bit);
  }
  return digest;
}

}  // namespace zkpipe::r1cs::sha256
