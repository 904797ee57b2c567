#include "proving/evaluator_cache.hpp"

#include <chrono>
#include <stdexcept>

#include "groth16/evaluator_file.hpp"
#include "groth16/footprint.hpp"
#include "groth16/synthesis.hpp"
#include "io/directory.hpp"
#include "io/file_error.hpp"
#include "io/read_only_file.hpp"

namespace zkpipe::proving {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

std::filesystem::path evaluator_path(const std::filesystem::path& key_path) {
  return std::filesystem::path(key_path).replace_extension(".zkpev");
}

CachedEvaluator load_or_compile_evaluator(const std::filesystem::path& key_path, const groth16::ProvingKey& key,
                                          const r1cs::PartitionedCircuit& circuit, const CompileProgress& progress) {
  CachedEvaluator out;
  out.path = evaluator_path(key_path);
  const groth16::EvaluatorExpectation expected{circuit.name(), groth16::key_fingerprint(key)};
  auto t0 = Clock::now();
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::symlink_status(out.path, ec))) {
    try {
      const std::filesystem::path dir = out.path.has_parent_path() ? out.path.parent_path() : ".";
      auto mapping = io::FileMapping::map(io::ReadOnlyFile::open_beneath(io::Directory(dir), out.path.filename()));
      out.evaluator = std::make_shared<const r1cs::CompiledR1cs>(groth16::load_evaluator_file(mapping, expected));
      out.mapping = std::move(mapping);
      out.seconds = seconds_since(t0);
      return out;
    } catch (const groth16::EvaluatorFileError& e) {
      out.passed_over = e.what();
    } catch (const io::FileError& e) {
      out.passed_over = e.what();
    }
  }
  t0 = Clock::now();
  out.evaluator = std::make_shared<const r1cs::CompiledR1cs>(groth16::compile_circuit(circuit, progress));
  out.seconds = seconds_since(t0);
  const groth16::CircuitShape compiled = groth16::CircuitShape::of(*out.evaluator);
  if (const auto why = groth16::key_shape_mismatch(compiled, groth16::CircuitShape::of(key))) {
    throw std::invalid_argument(key_path.string() + ": this key is not for " + circuit.name() + " (" + *why + ")");
  }
  try {
    groth16::write_evaluator_file(out.path, *out.evaluator, circuit.name(), expected.key_fingerprint);
  } catch (const std::exception& e) {
    out.not_cached = e.what();
  }
  return out;
}

}  // namespace zkpipe::proving
