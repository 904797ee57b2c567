// Counts what a synthesis produces (constraints, variables, A/B densities, non-zero
// matrix entries) without keeping values or matrices: the size of a circuit, for
// planning memory and parameters, at the cost of one bit per variable.
#pragma once

#include <memory>
#include <optional>

#include "r1cs/constraint_system.hpp"
#include "r1cs/density.hpp"
#include "r1cs/segment.hpp"

namespace zkpipe::r1cs {

class ShapeSystem final : public ConstraintSystem {
 public:
  // Allocates the constant ONE as input 0.
  ShapeSystem();

  // A part counted on its own (new_segment), over the `base` variables of the
  // system it is appended to (r1cs/segment.hpp).
  struct Segment {};
  ShapeSystem(Segment, SegmentBase base);
  std::unique_ptr<ConstraintSystem> new_segment() const override;
  void append_segment(const ConstraintSystem& segment, std::size_t copies) override;

  Variable alloc(ValueFn value) override;
  Variable alloc_input(ValueFn value) override;
  void enforce(const LC& a, const LC& b, const LC& c) override;

  std::size_t num_inputs() const override { return a_input_density_.size(); }
  std::size_t num_aux() const override { return a_aux_density_.size(); }
  std::size_t num_constraints() const override { return constraints_; }

  const DensityBitmap& a_input_density() const { return a_input_density_; }
  const DensityBitmap& a_aux_density() const { return a_aux_density_; }
  const DensityBitmap& b_input_density() const { return b_input_density_; }
  const DensityBitmap& b_aux_density() const { return b_aux_density_; }
  // Entries of A, B and C together (what the compiled evaluator stores).
  std::size_t nonzeros() const { return nonzeros_; }

 private:
  std::optional<SegmentBase> segment_;
  std::size_t constraints_ = 0;
  std::size_t nonzeros_ = 0;
  DensityBitmap a_input_density_;
  DensityBitmap a_aux_density_;
  DensityBitmap b_input_density_;
  DensityBitmap b_aux_density_;
};

}  // namespace zkpipe::r1cs
