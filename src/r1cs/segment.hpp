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

}  // namespace zkpipe::r1cs
