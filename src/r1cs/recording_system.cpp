#include "r1cs/recording_system.hpp"

#include <stdexcept>

namespace zkpipe::r1cs {

AbcVectors evaluate_abc(const R1csMatrices& m, const Assignment& z) {
  if (z.inputs.size() != m.num_inputs || z.aux.size() != m.num_aux) {
    throw std::invalid_argument("evaluate_abc: assignment size does not match the matrices");
  }
  return AbcVectors{multiply(m.a, z), multiply(m.b, z), multiply(m.c, z)};
}

RecordingSystem::RecordingSystem() { m_.num_inputs = 1; }

Variable RecordingSystem::alloc(ValueFn /*value*/) {
  if (m_.num_aux > Variable::kMaxIndex) throw std::length_error("RecordingSystem: too many aux variables");
  return Variable::aux(static_cast<std::uint32_t>(m_.num_aux++));
}

Variable RecordingSystem::alloc_input(ValueFn /*value*/) {
  if (m_.num_inputs > Variable::kMaxIndex) throw std::length_error("RecordingSystem: too many inputs");
  return Variable::input(static_cast<std::uint32_t>(m_.num_inputs++));
}

void RecordingSystem::enforce(const LC& a, const LC& b, const LC& c) {
  m_.a.append_row(a);
  m_.b.append_row(b);
  m_.c.append_row(c);
}

}  // namespace zkpipe::r1cs
