#include "gadgets/sha256.hpp"

#include <optional>
#include <stdexcept>

#include "gadgets/multieq.hpp"
#include "hash/sha256_constants.hpp"

namespace zkpipe::gadgets::sha256 {

namespace {

UInt32 xor3(r1cs::ConstraintSystem& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
  return xor_of(cs, xor_of(cs, a, b), c);
}

// A working variable that is either a word or a sum not yet computed: bellperson
// leaves a and e as their addends until they are next read, so that the last
// round's a and e absorb the final addition of the chaining value into the same
// addmany.
class Deferred {
 public:
  explicit Deferred(const UInt32& word) : word_(word) {}
  explicit Deferred(std::vector<UInt32> addends) : addends_(std::move(addends)) {}

  // The word, adding `more` to the addends first when it is still a sum (a word
  // that already exists takes nothing more).
  UInt32 compute(MultiEq& eq, std::span<const UInt32> more = {}) {
    if (word_) return *word_;
    addends_.insert(addends_.end(), more.begin(), more.end());
    return UInt32::addmany(eq, addends_);
  }

 private:
  std::optional<UInt32> word_;
  std::vector<UInt32> addends_;
};

std::vector<UInt32> message_schedule(r1cs::ConstraintSystem& cs, MultiEq& eq, std::span<const Boolean> block) {
  auto s = cs.scope("schedule");
  std::vector<UInt32> w;
  w.reserve(64);
  for (std::size_t t = 0; t < 16; ++t) w.push_back(UInt32::from_bits_be(block.subspan(32 * t).first<32>()));
  for (std::size_t t = 16; t < 64; ++t) {
    auto st = cs.scope("word", t);
    const UInt32 s0 = xor3(cs, w[t - 15].rotr(7), w[t - 15].rotr(18), w[t - 15].shr(3));
    const UInt32 s1 = xor3(cs, w[t - 2].rotr(17), w[t - 2].rotr(19), w[t - 2].shr(10));
    const std::array<UInt32, 4> terms = {w[t - 16], s0, w[t - 7], s1};
    w.push_back(UInt32::addmany(eq, terms));
  }
  return w;
}

}  // namespace

WordState initial_state() {
  WordState s;
  for (std::size_t i = 0; i < 8; ++i) s[i] = UInt32::constant(hash::sha256::kInitialState[i]);
  return s;
}

WordState compress(r1cs::ConstraintSystem& cs, std::span<const Boolean> block, const WordState& state) {
  if (block.size() != 512) throw std::invalid_argument("sha256::compress: a block is 512 bits");
  MultiEq eq(cs);
  const std::vector<UInt32> w = message_schedule(cs, eq, block);
  Deferred a(state[0]);
  UInt32 b = state[1];
  UInt32 c = state[2];
  UInt32 d = state[3];
  Deferred e(state[4]);
  UInt32 f = state[5];
  UInt32 g = state[6];
  UInt32 h = state[7];
  for (std::size_t t = 0; t < 64; ++t) {
    auto sr = cs.scope("round", t);
    const UInt32 new_e = e.compute(eq);
    const UInt32 big_s1 = xor3(cs, new_e.rotr(6), new_e.rotr(11), new_e.rotr(25));
    const UInt32 ch = [&] {
      auto s = cs.scope("ch");
      return sha256_ch(cs, new_e, f, g);
    }();
    const UInt32 new_a = a.compute(eq);
    const UInt32 big_s0 = xor3(cs, new_a.rotr(2), new_a.rotr(13), new_a.rotr(22));
    const UInt32 maj = [&] {
      auto s = cs.scope("maj");
      return sha256_maj(cs, new_a, b, c);
    }();
    // T1 = h + Σ1 + ch + K + W and T2 = Σ0 + maj are never materialized: the new e
    // and a are each one addmany over all their addends.
    const UInt32 k = UInt32::constant(hash::sha256::kRoundConstants[t]);
    e = Deferred(std::vector<UInt32>{h, big_s1, ch, k, w[t], d});
    a = Deferred(std::vector<UInt32>{h, big_s1, ch, k, w[t], big_s0, maj});
    h = g;
    g = f;
    f = new_e;
    d = c;
    c = b;
    b = new_a;
  }
  auto sf = cs.scope("final add");
  const auto add = [&](const UInt32& x, const UInt32& y) {
    const std::array<UInt32, 2> terms = {x, y};
    return UInt32::addmany(eq, terms);
  };
  WordState out;
  out[0] = a.compute(eq, std::span(&state[0], 1));
  out[1] = add(state[1], b);
  out[2] = add(state[2], c);
  out[3] = add(state[3], d);
  out[4] = e.compute(eq, std::span(&state[4], 1));
  out[5] = add(state[5], f);
  out[6] = add(state[6], g);
  out[7] = add(state[7], h);
  eq.flush();
  return out;
}

std::vector<Boolean> hash(r1cs::ConstraintSystem& cs, std::span<const Boolean> message) {
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

}  // namespace zkpipe::gadgets::sha256
