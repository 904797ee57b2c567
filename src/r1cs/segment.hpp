// A part of a circuit recorded once and appended many times (ConstraintSystem::
// new_segment / append_segment): where each copy's variables land.
//
// A segment is made after the system it is appended to has allocated `base` inputs
// and aux variables (ONE included). Its constraints may read those (the head's, shared
// by every copy: a PoRep partition's commitments); what it allocates itself is
// numbered from the base on. Copy k of such a variable lands after the copies before
// it, from where the system stood when the copies were appended.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "r1cs/density.hpp"
#include "r1cs/variable.hpp"

namespace zkpipe::r1cs {

struct SegmentBase {
  std::size_t inputs = 1;  // ONE
  std::size_t aux = 0;
};

struct SegmentPlacement {
  SegmentBase base;            // the head's variables the segment may read
  std::size_t own_inputs = 0;  // what one copy allocates
  std::size_t own_aux = 0;
  std::size_t input_start = 0;  // where copy 0's own variables land
  std::size_t aux_start = 0;

  Variable place(Variable v, std::size_t copy) const {
    const std::size_t i = v.index();
    if (v.is_aux()) {
      return i < base.aux ? v : Variable::aux(static_cast<std::uint32_t>(aux_start + copy * own_aux + (i - base.aux)));
    }
    return i < base.inputs ? v
                           : Variable::input(static_cast<std::uint32_t>(input_start + copy * own_inputs +
                                                                        (i - base.inputs)));
  }
};

// Where `copies` copies of a segment over `base` that allocated up to `part_inputs` /
// `part_aux` land in a system that holds `inputs` / `aux` now. Throws
// std::invalid_argument when the segment reads variables the system lacks,
// std::length_error when the copies would overflow the variable index.
inline SegmentPlacement place_copies(SegmentBase base, std::size_t part_inputs, std::size_t part_aux,
                                     std::size_t inputs, std::size_t aux, std::size_t copies) {
  if (base.inputs > inputs || base.aux > aux) {
    throw std::invalid_argument("append_segment: the segment reads variables the system lacks");
  }
  const SegmentPlacement p{base, part_inputs - base.inputs, part_aux - base.aux, inputs, aux};
  if (inputs + copies * p.own_inputs > std::size_t{Variable::kMaxIndex} + 1 ||
      aux + copies * p.own_aux > std::size_t{Variable::kMaxIndex} + 1) {
    throw std::length_error("append_segment: " + std::to_string(copies) + " copies overflow the variable index");
  }
  return p;
}

// A density of the system after `copies` copies of a segment's over `base` variables:
// the head's bits the copies read, then each copy's own.
inline void append_density_copies(DensityBitmap& head, const DensityBitmap& part, std::size_t base,
                                  std::size_t copies) {
  head.merge_prefix(part, base);
  for (std::size_t k = 0; k < copies; ++k) head.append(part, base);
}

}  // namespace zkpipe::r1cs
