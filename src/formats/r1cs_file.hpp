// circom's .r1cs (version 1) on BLS12-381: header, constraints and the wire → label
// map (custom-gate sections are rejected). Wire 0 is the constant ONE, then the public
// outputs, the public inputs, the private inputs and the internal signals.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace zkpipe::formats {

struct R1csHeader {
  std::uint32_t n_wires = 0;
  std::uint32_t n_pub_out = 0;
  std::uint32_t n_pub_in = 0;
  std::uint32_t n_prv_in = 0;
  std::uint64_t n_labels = 0;
  std::uint32_t n_constraints = 0;

  // Public signals, ONE excluded: outputs then public inputs.
  std::uint32_t n_public() const { return n_pub_out + n_pub_in; }
};

struct R1csTerm {
  std::uint32_t wire;
  ff::Fr coefficient;
};

// Constraint i is ⟨A_i, w⟩·⟨B_i, w⟩ = ⟨C_i, w⟩; its three linear combinations are
// terms[lc_start[3i] .. lc_start[3i+1]), […3i+2), […3i+3).
struct R1csFile {
  R1csHeader header;
  std::vector<R1csTerm> terms;
  std::vector<std::uint64_t> lc_start;
  std::vector<std::uint64_t> wire_to_label;

  std::span<const R1csTerm> lc(std::size_t constraint, int matrix) const {
    const std::size_t k = 3 * constraint + static_cast<std::size_t>(matrix);
    return std::span(terms).subspan(lc_start[k], lc_start[k + 1] - lc_start[k]);
  }
  // The first constraint the witness violates, if any. The witness must have n_wires values.
  std::optional<std::size_t> first_unsatisfied(std::span<const ff::Fr> witness) const;
};

// Throws FormatError for any malformed or inconsistent content, or a prime other than
// BLS12-381's r.
R1csFile read_r1cs(const std::filesystem::path& path);

}  // namespace zkpipe::formats
