// zkpipe's evaluator file: a circuit shape compiled once (r1cs::CompiledR1cs) and
// cached next to the proving key it was built for, memory-mapped and used in place
// like the parameter file (parameter_file.hpp): a fixed header, a section table,
// then page-aligned sections holding the arrays exactly as they lie in memory
// (little-endian, x86-64), each with an xxHash64 checksum.
//
//   offset 0    Header        magic "ZKPIPEEV", version, counts, circuit name,
//                             shape hash, key fingerprint
//   …           SectionEntry  × 13: id, offset, bytes, xxh64
//   4096·k      sections      a.row_offsets, a.columns, a.coefficients, the same
//                             for b and c, coefficient_table, a_aux_density,
//                             b_input_density, b_aux_density
//
// The file is bound to a circuit name and a proving key's fingerprint, so a cache
// left over from another circuit or another setup is refused instead of silently
// producing proofs that do not verify. Every array the sparse product indexes
// with is validated on load (on all cores), so a corrupted or forged file can never
// make the product read out of bounds, whether or not checksums are verified.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "groth16/keys.hpp"
#include "io/file_mapping.hpp"
#include "r1cs/compiled_r1cs.hpp"

namespace zkpipe::groth16 {

class EvaluatorFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The circuit name field's size: longer names are refused by the writer.
inline constexpr std::size_t kEvaluatorCircuitNameBytes = 64;

struct EvaluatorLoadOptions {
  // Hashing a 2^27-constraint evaluator reads ~6 GiB twice (section checksums and
  // the shape hash); callers that just wrote the file may skip it. The structural
  // validation that keeps the product in bounds runs whatever this says.
  bool verify_checksums = true;
};

// What the caller needs the file to have been built for.
struct EvaluatorExpectation {
  std::string circuit_name;
  std::uint64_t key_fingerprint = 0;
};

// Streams to `path` through io::AtomicFile: readers see the old file or the whole
// new one, on disk. Throws EvaluatorFileError for a name
// over kEvaluatorCircuitNameBytes (or holding a NUL), an inconsistent `evaluator`,
// or an I/O failure.
void write_evaluator_file(const std::filesystem::path& path, const r1cs::CompiledR1cs& evaluator,
                          std::string_view circuit_name, std::uint64_t key_fingerprint);

// Maps the file read-only; the result's spans point into the mapping, which its
// `storage` keeps alive. Throws EvaluatorFileError naming the file and, where one
// applies, the section and byte offset of the first problem.
r1cs::CompiledR1cs load_evaluator_file(const std::filesystem::path& path, const EvaluatorExpectation& expected,
                                       const EvaluatorLoadOptions& options = {});
// The same from a mapping the caller keeps (load_parameter_file's overload says why).
r1cs::CompiledR1cs load_evaluator_file(const std::shared_ptr<const io::FileMapping>& mapping,
                                       const EvaluatorExpectation& expected, const EvaluatorLoadOptions& options = {});

// Identifies a proving key without reading its bulk queries: xxh64 over its counts
// (inputs, aux, domain size, H layout, query sizes), its density bitmaps and its
// verifying key's points. Equal for a key and the same key read back from a file.
std::uint64_t key_fingerprint(const ProvingKey& key);

// xxh64 over the evaluator's counts, its three matrices (row offsets, columns,
// coefficient codes), its coefficient table and its densities, in that order.
std::uint64_t shape_hash(const r1cs::CompiledR1cs& evaluator);

}  // namespace zkpipe::groth16
