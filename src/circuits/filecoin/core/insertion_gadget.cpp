#include "circuits/filecoin/core/insertion_gadget.hpp"

#include <stdexcept>
#include <string>

namespace zkpipe::filecoin::core {

using r1cs::LC;

AllocatedNum pick(ConstraintSystem& cs, const Boolean& condition, const AllocatedNum& a, const AllocatedNum& b) {
  const AllocatedNum result = AllocatedNum::alloc(cs, condition.value() ? a.value() : b.value());
  if (cs.values_only()) {
    cs.skip_constraints(1);
  } else {
    cs.enforce(b.lc() - a.lc(), condition.lc(), b.lc() - result.lc());
  }
  return result;
}

AllocatedNum select(ConstraintSystem& cs, std::span<const AllocatedNum> from, std::span<const Boolean> bits) {
  if (bits.size() >= 32 || from.size() != (std::size_t{1} << bits.size())) {
    throw std::invalid_argument("select: " + std::to_string(from.size()) + " elements for " +
                                std::to_string(bits.size()) + " index bits");
  }
  std::vector<AllocatedNum> state(from.begin(), from.end());
  // Most significant bit first: each bit halves the candidates.
  for (std::size_t i = bits.size(); i-- > 0;) {
    const std::size_t half = state.size() / 2;
    std::vector<AllocatedNum> next;
    next.reserve(half);
    for (std::size_t j = 0; j < half; ++j) next.push_back(pick(cs, bits[i], state[half + j], state[j]));
    state = std::move(next);
  }
  return state.front();
}

namespace {

std::vector<AllocatedNum> insert_general(ConstraintSystem& cs, const AllocatedNum& element,
                                         std::span<const Boolean> bits, std::span<const AllocatedNum> elements) {
  const std::size_t size = elements.size() + 1;
  std::vector<AllocatedNum> result;
  result.reserve(size);
  for (std::size_t pos = 0; pos < size; ++pos) {
    // Position pos of the result, for each insertion index.
    std::vector<AllocatedNum> choices;
    choices.reserve(size);
    for (std::size_t index = 0; index < size; ++index) {
      if (pos < index) {
        choices.push_back(elements[pos]);
      } else if (pos == index) {
        choices.push_back(element);
      } else {
        choices.push_back(elements[pos - 1]);
      }
    }
    auto s = cs.scope("choice at", pos);
    result.push_back(select(cs, choices, bits));
  }
  return result;
}

std::vector<AllocatedNum> insert_2(ConstraintSystem& cs, const AllocatedNum& x, const Boolean& b0,
                                   const AllocatedNum& b) {
  AllocatedNum p0 = pick(cs, b0, b, x);
  AllocatedNum p1 = pick(cs, b0, x, b);
  return {p0, p1};
}

// x inserted into (b, c, d) at n = b0 + 2·b1. Each output position picks on b0 then b1,
// in the reference's order.
std::vector<AllocatedNum> insert_4(ConstraintSystem& cs, const AllocatedNum& x, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> others) {
  const Boolean& b0 = bits[0];
  const Boolean& b1 = bits[1];
  const AllocatedNum &b = others[0], &c = others[1], &d = others[2];
  const AllocatedNum p0_x0 = pick(cs, b0, b, x);
  const AllocatedNum p0 = pick(cs, b1, b, p0_x0);
  const AllocatedNum p1_x0 = pick(cs, b0, x, b);
  const AllocatedNum p1 = pick(cs, b1, c, p1_x0);
  const AllocatedNum p2_x1 = pick(cs, b0, d, x);
  const AllocatedNum p2 = pick(cs, b1, p2_x1, c);
  const AllocatedNum p3_x1 = pick(cs, b0, x, d);
  const AllocatedNum p3 = pick(cs, b1, p3_x1, d);
  return {p0, p1, p2, p3};
}

// x inserted into (b … h) at n = b0 + 2·b1 + 4·b2, with the reference's shared
// "b0 nor b1" and "b0 and b1" bits.
std::vector<AllocatedNum> insert_8(ConstraintSystem& cs, const AllocatedNum& x, std::span<const Boolean> bits,
                                   std::span<const AllocatedNum> others) {
  const Boolean& b0 = bits[0];
  const Boolean& b1 = bits[1];
  const Boolean& b2 = bits[2];
  if (b0.is_constant() || b0.is_negated() || b1.is_constant() || b1.is_negated()) {
    throw std::invalid_argument("insert: the two low index bits of an arity-8 level must be allocated, not negated");
  }
  const AllocatedNum &b = others[0], &c = others[1], &d = others[2], &e = others[3];
  const AllocatedNum &f = others[4], &g = others[5], &h = others[6];
  const Boolean b0_nor_b1 = gadgets::and_of(cs, !b0, !b1);
  const Boolean b0_and_b1 = gadgets::and_of(cs, b0, b1);

  const AllocatedNum p0_xx0 = pick(cs, b0_nor_b1, x, b);
  const AllocatedNum p0 = pick(cs, b2, b, p0_xx0);

  const AllocatedNum p1_x00 = pick(cs, b0, x, b);
  const AllocatedNum p1_xx0 = pick(cs, b1, c, p1_x00);
  const AllocatedNum p1 = pick(cs, b2, c, p1_xx0);

  const AllocatedNum p2_x10 = pick(cs, b0, d, x);
  const AllocatedNum p2_xx0 = pick(cs, b1, p2_x10, c);
  const AllocatedNum p2 = pick(cs, b2, d, p2_xx0);

  const AllocatedNum p3_xx0 = pick(cs, b0_and_b1, x, d);
  const AllocatedNum p3 = pick(cs, b2, e, p3_xx0);

  const AllocatedNum p4_xx1 = pick(cs, b0_nor_b1, x, f);
  const AllocatedNum p4 = pick(cs, b2, p4_xx1, e);

  const AllocatedNum p5_x01 = pick(cs, b0, x, f);
  const AllocatedNum p5_xx1 = pick(cs, b1, g, p5_x01);
  const AllocatedNum p5 = pick(cs, b2, p5_xx1, f);

  const AllocatedNum p6_x11 = pick(cs, b0, h, x);
  const AllocatedNum p6_xx1 = pick(cs, b1, p6_x11, g);
  const AllocatedNum p6 = pick(cs, b2, p6_xx1, g);

  const AllocatedNum p7_xx1 = pick(cs, b0_and_b1, x, h);
  const AllocatedNum p7 = pick(cs, b2, p7_xx1, h);
  return {p0, p1, p2, p3, p4, p5, p6, p7};
}

}  // namespace

std::vector<AllocatedNum> insert(ConstraintSystem& cs, const AllocatedNum& element, std::span<const Boolean> bits,
                                 std::span<const AllocatedNum> elements) {
  if (bits.size() >= 32 || elements.size() + 1 != (std::size_t{1} << bits.size())) {
    throw std::invalid_argument("insert: " + std::to_string(elements.size()) + " elements for " +
                                std::to_string(bits.size()) + " index bits (2^bits − 1 expected)");
  }
  switch (elements.size() + 1) {
    case 2: return insert_2(cs, element, bits[0], elements[0]);
    case 4: return insert_4(cs, element, bits, elements);
    case 8: return insert_8(cs, element, bits, elements);
    default: return insert_general(cs, element, bits, elements);
  }
}

}  // namespace zkpipe::filecoin::core
