// groth16::load_evaluator_file on any bytes: an evaluator file either loads or is
// refused with EvaluatorFileError. The expectation (circuit name, key fingerprint)
// is taken from the input's own header so that the count, section and structure
// checks are reached (a mismatching one must always be refused). The file is loaded
// with and without checksums (a mutated file mostly fails the checksum; the structural
// validation must hold without it). An evaluator that loads is run: the header
// promises that no file, however forged, makes the sparse product read out of
// bounds, so a, b, c are computed from it (for a bounded number of variables)
// under ASan.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "fuzz_common.hpp"
#include "groth16/evaluator_file.hpp"
#include "r1cs/compact_values.hpp"
#include "r1cs/sparse_product.hpp"

using namespace zkpipe;

namespace {

// evaluator_file.cpp's header layout: circuit name at 96 (64 bytes, NUL-padded),
// key fingerprint at 168.
constexpr std::size_t kNameAt = 96;
constexpr std::size_t kFingerprintAt = 168;

groth16::EvaluatorExpectation expectation_of(const std::uint8_t* data, std::size_t size) {
  groth16::EvaluatorExpectation e;
  if (size < kFingerprintAt + 8) return e;
  const char* name = reinterpret_cast<const char*>(data + kNameAt);
  e.circuit_name.assign(name, std::find(name, name + groth16::kEvaluatorCircuitNameBytes, '\0'));
  std::memcpy(&e.key_fingerprint, data + kFingerprintAt, sizeof e.key_fingerprint);
  return e;
}

// A mix of 0, 1 and wide values: every branch of the product.
r1cs::CompactValues values(std::size_t n) {
  std::vector<ff::Fr> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = i % 3 == 2 ? ff::Fr::from_u64(i + 2) : ff::Fr::from_u64(i % 3);
  return r1cs::CompactValues::of(v);
}

void run_product(const r1cs::CompiledR1cs& e) {
  constexpr std::size_t kMaxVariables = std::size_t{1} << 16;
  if (e.num_inputs + e.num_aux > kMaxVariables) return;
  std::vector<ff::Fr> inputs(e.num_inputs, ff::Fr::from_u64(3));
  inputs[0] = ff::Fr::one();
  const r1cs::AbcVectors abc = r1cs::evaluate_abc(e, inputs, values(e.num_aux));
  ZKPIPE_FUZZ_CHECK(abc.a.size() == e.num_constraints && abc.b.size() == e.num_constraints &&
                    abc.c.size() == e.num_constraints);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  fuzz::init_single_thread();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static fuzz::InputFile file("evaluator");
  const auto& path = file.write(data, size);
  const groth16::EvaluatorExpectation own = expectation_of(data, size);
  const groth16::EvaluatorExpectation other{own.circuit_name, own.key_fingerprint ^ 1};
  // Checksums add checks and change no other: a file refused without them is refused
  // with them, so the second load runs only after the first succeeds.
  for (const bool verify : {false, true}) {
    try {
      const r1cs::CompiledR1cs e = groth16::load_evaluator_file(path, own, {.verify_checksums = verify});
      if (!verify) run_product(e);
    } catch (const groth16::EvaluatorFileError&) {
      break;
    }
  }
  // Refused before any section is read, checksums or not.
  try {
    (void)groth16::load_evaluator_file(path, other, {.verify_checksums = false});
    ZKPIPE_FUZZ_CHECK(!"an evaluator built for another key loaded");
  } catch (const groth16::EvaluatorFileError&) {
  }
  return 0;
}
