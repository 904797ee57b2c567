// Records the circuit itself: the A, B, C matrices (CSR, one row per constraint)
// and the variable counts. Used by setup and by the pre-compiled evaluator, which
// recomputes a, b, c from the matrices and a witness without re-running the circuit.
// Values are never asked for.
#pragma once

#include <cstddef>

#include "r1cs/constraint_system.hpp"
#include "r1cs/csr_matrix.hpp"

namespace zkpipe::r1cs {

struct R1csMatrices {
  CsrMatrix a;
  CsrMatrix b;
  CsrMatrix c;
  std::size_t num_inputs = 0;  // including ONE
  std::size_t num_aux = 0;

  std::size_t num_constraints() const { return a.rows(); }
};

struct AbcVectors {
  std::vector<Fr> a;
  std::vector<Fr> b;
  std::vector<Fr> c;
};

// The a, b, c vectors of a witness: what ProvingAssignment computes while synthesizing.
AbcVectors evaluate_abc(const R1csMatrices& m, const Assignment& z);

class RecordingSystem final : public ConstraintSystem {
 public:
  // Allocates the constant ONE as input 0.
  RecordingSystem();

  Variable alloc(ValueFn value) override;
  Variable alloc_input(ValueFn value) override;
  void enforce(const LC& a, const LC& b, const LC& c) override;

  std::size_t num_inputs() const override { return m_.num_inputs; }
  std::size_t num_aux() const override { return m_.num_aux; }
  std::size_t num_constraints() const override { return m_.num_constraints(); }

  const R1csMatrices& matrices() const& { return m_; }
  R1csMatrices matrices() && { return std::move(m_); }

 private:
  R1csMatrices m_;
};

}  // namespace zkpipe::r1cs
