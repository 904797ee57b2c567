// The prover's view of a synthesis: the values of every variable, the evaluations
// a_i = ⟨A_i, z⟩, b_i, c_i of every constraint, and the density bitmaps of A and B
// over inputs and aux. This is the hot path of witness generation (2^20 to 2^27
// constraints per partition), so it stores nothing else.
#pragma once

#include <cstddef>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/density.hpp"

namespace zkpipe::r1cs {

class ProvingAssignment final : public ConstraintSystem {
 public:
  // Allocates the constant ONE as input 0. The hints only pre-size the vectors.
  explicit ProvingAssignment(std::size_t constraints_hint = 0, std::size_t aux_hint = 0);

  Variable alloc(ValueFn value) override;
  Variable alloc_input(ValueFn value) override;
  void enforce(const LC& a, const LC& b, const LC& c) override;

  std::size_t num_inputs() const override { return inputs_.size(); }
  std::size_t num_aux() const override { return aux_.size(); }
  std::size_t num_constraints() const override { return a_.size(); }

  const std::vector<Fr>& a() const& { return a_; }
  const std::vector<Fr>& b() const& { return b_; }
  const std::vector<Fr>& c() const& { return c_; }
  const std::vector<Fr>& inputs() const& { return inputs_; }
  const std::vector<Fr>& aux() const& { return aux_; }
  // Moving accessors, so a prover takes the vectors without copying them.
  std::vector<Fr> a() && { return std::move(a_); }
  std::vector<Fr> b() && { return std::move(b_); }
  std::vector<Fr> c() && { return std::move(c_); }
  std::vector<Fr> inputs() && { return std::move(inputs_); }
  std::vector<Fr> aux() && { return std::move(aux_); }
  Assignment assignment() const { return Assignment{inputs_, aux_}; }

  const DensityBitmap& a_input_density() const { return a_input_density_; }
  const DensityBitmap& a_aux_density() const { return a_aux_density_; }
  const DensityBitmap& b_input_density() const { return b_input_density_; }
  const DensityBitmap& b_aux_density() const { return b_aux_density_; }

 private:
  Fr evaluate_and_mark(const LC& lc, DensityBitmap& input_density, DensityBitmap& aux_density);
  Fr evaluate(const LC& lc) const;

  std::vector<Fr> inputs_;
  std::vector<Fr> aux_;
  std::vector<Fr> a_;
  std::vector<Fr> b_;
  std::vector<Fr> c_;
  DensityBitmap a_input_density_;
  DensityBitmap a_aux_density_;
  DensityBitmap b_input_density_;
  DensityBitmap b_aux_density_;
};

}  // namespace zkpipe::r1cs
