// The pre-compiled constraint evaluator's data: a circuit's A, B and C recorded once
// per circuit shape, in the form the sparse product reads fastest and stores
// smallest. Per non-zero entry 8 bytes: the variable (its 32-bit Variable encoding)
// and a 32-bit coefficient code — a small signed integer inline (±1, the powers of
// two of bit packing) or an index into a table of the few distinct wide
// coefficients (Poseidon's constants). A 2^27-constraint PoRep partition's matrices
// take ~6 GiB this way instead of ~26 GiB as (variable, Fr) pairs.
//
// The A/B densities are properties of the matrices, not of a witness, so they are
// computed here once (equal to what ProvingAssignment marks while it synthesizes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/density.hpp"
#include "r1cs/segment.hpp"

namespace zkpipe::r1cs {

// Coefficient codes: bit 31 clear — a signed integer in the low 31 bits (two's
// complement), −2^30 ≤ k < 2^30; bit 31 set — index of an Fr in the coefficient table.
namespace coefficient_code {
inline constexpr std::uint32_t kTableFlag = std::uint32_t{1} << 31;
inline constexpr std::int64_t kSmallLimit = std::int64_t{1} << 30;
constexpr bool is_small(std::uint32_t code) { return (code & kTableFlag) == 0; }
constexpr std::int32_t small_value(std::uint32_t code) {
  return static_cast<std::int32_t>(code << 1) >> 1;  // sign-extends bit 30
}
constexpr std::uint32_t table_index(std::uint32_t code) { return code & ~kTableFlag; }
constexpr std::uint32_t of_small(std::int64_t k) { return static_cast<std::uint32_t>(k) & ~kTableFlag; }
constexpr std::uint32_t of_table_index(std::uint32_t index) { return index | kTableFlag; }
// The Fr a code stands for.
Fr decode(std::uint32_t code, std::span<const Fr> table);
}  // namespace coefficient_code

struct CompiledMatrix {
  std::span<const std::uint64_t> row_offsets;  // rows + 1 entries, from 0
  std::span<const Variable> columns;
  std::span<const std::uint32_t> coefficients;  // codes, one per column entry

  std::size_t rows() const { return row_offsets.empty() ? 0 : row_offsets.size() - 1; }
  std::size_t nonzeros() const { return columns.size(); }
};

struct CompiledR1cs {
  std::size_t num_inputs = 0;  // including ONE
  std::size_t num_aux = 0;
  std::size_t num_constraints = 0;
  CompiledMatrix a;
  CompiledMatrix b;
  CompiledMatrix c;
  std::span<const Fr> coefficient_table;
  DensityBitmap a_aux_density;
  DensityBitmap b_input_density;
  DensityBitmap b_aux_density;
  // Owns what the spans view: vectors built by CompilingSystem, or a mapped file.
  std::shared_ptr<const void> storage;
  // The matrices and the table view a read-only file mapping (an evaluator file):
  // resident as they are read, which the ledger follows.
  bool storage_is_file_mapping = false;

  std::size_t nonzeros() const { return a.nonzeros() + b.nonzeros() + c.nonzeros(); }
  // Bytes the matrices and the table take (what a device copy would take too).
  std::size_t matrix_bytes() const;
};

// Records a synthesis straight into the compiled form (no Fr per entry on the way).
// Values are never asked for: synthesize with any witness of the right shape.
class CompilingSystem final : public ConstraintSystem {
 public:
  // Allocates the constant ONE as input 0.
  CompilingSystem();

  // A part of a circuit compiled on its own, to be appended (append_segment) to a
  // system that had allocated `base` variables when the part was made: it may read
  // those; what it allocates is numbered from the base (r1cs/segment.hpp).
  struct Segment {};
  explicit CompilingSystem(Segment, SegmentBase base = {});

  Variable alloc(ValueFn value) override;
  Variable alloc_input(ValueFn value) override;
  void enforce(const LC& a, const LC& b, const LC& c) override;

  std::size_t num_inputs() const override { return num_inputs_; }
  std::size_t num_aux() const override { return num_aux_; }
  std::size_t num_constraints() const override { return a_.offsets.size() - 1; }

  CompiledR1cs finish() &&;

  // A CompilingSystem(Segment) over what this system holds now. Its copies are
  // appended with room reserved once, for the copies and for a row per input (the
  // Groth16 input constraints a caller adds last), so that a large circuit is not
  // copied as its vectors grow; they are placed on all cores.
  std::unique_ptr<ConstraintSystem> new_segment() const override;
  void append_segment(const ConstraintSystem& segment, std::size_t copies) override;

  // Called with the constraint count every 2^16 constraints (a long compile's progress).
  void on_progress(std::function<void(std::size_t constraints)> progress) { progress_ = std::move(progress); }

 private:
  struct Matrix {
    std::vector<std::uint64_t> offsets{0};
    std::vector<Variable> columns;
    std::vector<std::uint32_t> coefficients;
  };
  struct LimbsHash {
    std::size_t operator()(const Fr::Repr& r) const;
  };

  std::uint32_t code_of(const Fr& coefficient);
  void append(Matrix& m, const LC& lc, DensityBitmap* input_density, DensityBitmap* aux_density);
  static void reserve(Matrix& m, const Matrix& segment, std::size_t copies, std::size_t extra_rows,
                      std::size_t extra_entries);
  // `copies` copies of a segment's matrix, their variables placed by `placement` and
  // their table codes mapped through `codes`.
  static void append_copies(Matrix& m, const Matrix& segment, std::size_t copies, const SegmentPlacement& placement,
                            const std::vector<std::uint32_t>& codes);

  std::optional<SegmentBase> segment_;  // set on a segment: the head's variables it may read

  std::size_t num_inputs_ = 0;
  std::size_t num_aux_ = 0;
  Matrix a_;
  Matrix b_;
  Matrix c_;
  std::vector<Fr> table_;
  std::unordered_map<Fr::Repr, std::uint32_t, LimbsHash> codes_;  // by Montgomery limbs
  DensityBitmap a_aux_density_;
  DensityBitmap b_input_density_;
  DensityBitmap b_aux_density_;
  std::function<void(std::size_t)> progress_;
};

}  // namespace zkpipe::r1cs
