// bellperson's Groth16 parameter file (`.params`), the form in which Filecoin
// publishes its proving keys (rust-fil-proofs' parameters.json names them
// v28-<circuit>-<hash>.params, 47 GiB for a 32 GiB sector's PoRep) and which
// supraseal's SRS loader reads too. No header, no padding, points uncompressed in
// the zcash encoding (ec/serialization.hpp), counts u32 big-endian:
//
//   the verifying key, as in a .vk file (bellperson_vk.hpp): α₁ β₁ β₂ γ₂ δ₁ δ₂, IC
//   u32 |H|   H   (G1)  τ^j·Z(τ)/δ for j < N − 1
//   u32 |L|   L   (G1)  one per aux variable
//   u32 |A|   A   (G1)  inputs, then the aux variables that appear in A
//   u32 |B|   B₁  (G1)  the variables that appear in B (inputs, then aux)
//   u32 |B|   B₂  (G2)  the same variables
//
// bellperson never stores a point at infinity in H, L, A or B (its generator drops
// them, its readers refuse them), and the file does not say which variables A and B
// cover: that comes from the circuit (its density), so a groth16::ProvingKey is made
// from the file's queries and the circuit together (to_proving_key).
//
// The points are big-endian canonical coordinates, not this program's in-memory
// points (Montgomery-form limbs), so they cannot be used in place: reading decodes
// every point, on all cores, into owned arrays. Converting once to the native
// parameter file (groth16/parameter_file.hpp) gives a key that later loads are
// mapped from without decoding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "groth16/keys.hpp"
#include "io/file_mapping.hpp"
#include "r1cs/compiled_r1cs.hpp"
#include "r1cs/recording_system.hpp"

namespace zkpipe::formats {

// What a .params file holds, decoded and checked point by point.
struct BellpersonParams {
  groth16::VerifyingKey vk;
  groth16::PointArray<groth16::G1Affine> h;
  groth16::PointArray<groth16::G1Affine> l;
  groth16::PointArray<groth16::G1Affine> a;
  groth16::PointArray<groth16::G1Affine> b_g1;
  groth16::PointArray<groth16::G2Affine> b_g2;
};

struct BellpersonReadOptions {
  // The subgroup check is most of a point's decoding cost (a 47 GiB file holds
  // ~470 million points); the flags, coordinates and curve equation are checked
  // whatever this says, and so is every verifying-key point.
  bool check_subgroup = true;
  // A verifying key that lets proofs be forged (key_validation.hpp) only with kAllow.
  groth16::InsecureKey insecure_key = groth16::InsecureKey::kRefuse;
  // Points convert_bellperson_params decodes at a time: ~100 MiB of G1, ~200 MiB of G2.
  std::uint64_t convert_chunk_points = std::uint64_t{1} << 20;
};

// Throws FormatError naming the file, the byte offset and what was expected there:
// a count that needs more bytes than remain, bytes after the last query, a point that
// fails decoding ("h point 17: point is not on the curve"), a point at infinity in a
// query, or a refused verifying key.
BellpersonParams read_bellperson_params(const std::filesystem::path& path, const BellpersonReadOptions& options = {});
BellpersonParams read_bellperson_params(const std::shared_ptr<const io::FileMapping>& mapping,
                                        const BellpersonReadOptions& options = {});

// What a circuit asks of its parameters.
struct CircuitRequirements {
  // Input constraints included (r1cs::enforce_input_constraints): they fix the domain.
  std::size_t num_constraints = 0;
  // Which variables appear in A and B; its sizes give the public inputs (ONE
  // included: b_input) and the aux variables (a_aux, b_aux).
  groth16::QueryDensity density;

  std::size_t num_inputs() const { return density.b_input.size(); }
  std::size_t num_aux() const { return density.a_aux.size(); }
};

CircuitRequirements circuit_requirements(const r1cs::CompiledR1cs& circuit);
CircuitRequirements circuit_requirements(const r1cs::R1csMatrices& circuit);

// The points a .params file declares per query, from its counts alone: whether a file
// fits a circuit is known before its points (47 GiB of them for a 32 GiB sector's
// PoRep) are decoded.
struct BellpersonParamsCounts {
  std::size_t ic = 0;
  std::size_t h = 0;
  std::size_t l = 0;
  std::size_t a = 0;
  std::size_t b_g1 = 0;
  std::size_t b_g2 = 0;
};

// Throws FormatError as read_bellperson_params does for a file whose counts do not
// match its size; no point is decoded.
BellpersonParamsCounts read_bellperson_params_counts(const std::shared_ptr<const io::FileMapping>& mapping);

// The verifying key at the head of a .params file (its counts checked against its
// size first), without decoding a query point. Throws FormatError as
// read_bellperson_params does.
groth16::VerifyingKey read_bellperson_params_vk(const std::shared_ptr<const io::FileMapping>& mapping,
                                                groth16::InsecureKey insecure_key = groth16::InsecureKey::kRefuse);

// Throws FormatError (naming `name`) when parameters of these sizes do not fit the
// circuit: the checks of to_proving_key below.
void check_params_fit(const BellpersonParamsCounts& counts, const CircuitRequirements& circuit,
                      const std::string& name);

// The proving key of `circuit` from its parameters. Throws FormatError (naming
// `name`) when they do not fit it: IC count ≠ public inputs + 1, |L| ≠ aux
// variables, |A| or |B| ≠ the variables the circuit's density covers, |B₁| ≠ |B₂|,
// or |H| + 1 ≠ the circuit's domain size (the smallest power of two holding its
// constraints).
groth16::ProvingKey to_proving_key(BellpersonParams params, const CircuitRequirements& circuit,
                                   const std::string& name);

// Called as a conversion advances: points decoded so far, of `total`.
using ConvertProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

// The parameters of `circuit` in `mapping`'s .params, written as zkpipe's native
// parameter file at `out` (groth16/parameter_file.hpp), which later loads map in place
// without decoding. The points are decoded and checked as read_bellperson_params does,
// a chunk at a time, each chunk's pages of the mapping given back: host memory holds
// one chunk (~100 MiB), not the key (~47 GiB for a 32 GiB sector's PoRep). Throws
// FormatError naming the .params (its counts against the circuit first, as
// check_params_fit; then the first bad point), ParameterFileError naming `out` for a
// failed write; nothing is left at `out` then.
void convert_bellperson_params(const std::shared_ptr<const io::FileMapping>& mapping, const CircuitRequirements& circuit,
                               const std::filesystem::path& out, const BellpersonReadOptions& options = {},
                               const ConvertProgress& progress = {});

// Writes `key` as a .params file through io::AtomicFile (streamed, synced, renamed
// into place). Throws FormatError for a key bellperson could not read back: an H
// query not in the monomial layout (a snarkjs key), a point at infinity in H, L, A or
// B, or a query longer than a u32 count; also for a failed write.
void write_bellperson_params(const std::filesystem::path& path, const groth16::ProvingKey& key);

// The verifying key alone as a .vk file (bellperson_vk.hpp), likewise atomic.
void write_bellperson_vk(const std::filesystem::path& path, const groth16::VerifyingKey& vk);

}  // namespace zkpipe::formats
