#include "setup_run.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <system_error>
#include <iostream>
#include <sstream>

#include "groth16/evaluator_file.hpp"
#include "groth16/parameter_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/synthesis.hpp"
#include "memory/process_memory.hpp"
#include "progress.hpp"
#include "proving/evaluator_cache.hpp"
#ifdef ZKPIPE_WITH_CUDA
#include "gpu/device_setup.hpp"
#endif

namespace zkpipe::cli {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

groth16::ProvingKey multiply([[maybe_unused]] const SetupRequest& r, const groth16::SetupScalars& scalars,
                             const groth16::ToxicWaste& secrets, const groth16::SetupProgress& progress) {
  if (r.backend.backend != "cuda") {
    if (r.keep_on_device) throw std::invalid_argument("keeping the key on a device needs --backend cuda");
    return groth16::setup(scalars, secrets, progress);
  }
#ifdef ZKPIPE_WITH_CUDA
  return gpu::setup_on_device(scalars, secrets, r.backend.device.value_or(0),
                              r.keep_on_device ? gpu::KeyPlacement::device : gpu::KeyPlacement::host, progress);
#else
  // set_up_parameters refused --backend cuda already: make_backend throws in this build.
  throw std::logic_error("--backend cuda in a build without the CUDA backend");
#endif
}

// On the host's cores the key goes to its file a chunk at a time; on a device it is
// computed whole (and copied back) first.
bool streams_to_file(const SetupRequest& request) {
  return !request.keep_on_device && resolve_backend(request.backend).backend != "cuda";
}

}  // namespace

KeyFootprint KeyFootprint::of(const groth16::CircuitShape& s) {
  const std::size_t b = s.b_input_density + s.b_aux_density;
  const std::size_t g1_points = s.inputs + s.a_aux_density + b + s.aux + s.domain_size;
  return {g1_points * sizeof(groth16::G1Affine) + b * sizeof(groth16::G2Affine),
          s.evaluator_bytes(), (g1_points + b) * sizeof(ff::Fr)};
}

void check_setup_fits(const SetupRequest& request, const r1cs::PartitionedCircuit& circuit,
                      const std::filesystem::path& key_out) {
  const auto [key, evaluator, scalars] = KeyFootprint::of(groth16::count_shape(circuit));
  const bool key_on_host = !request.keep_on_device && !(streams_to_file(request) && !key_out.empty());
  const std::size_t memory = evaluator + scalars + (key_on_host ? key : 0);
  auto gib = [](std::size_t bytes) { return format_bytes(static_cast<double>(bytes)); };
  const memory::UsableMemory available = memory::usable_memory();
  if (available.bytes != 0 && memory > available.bytes) {
    throw std::invalid_argument("setup of " + circuit.name() + " needs about " + gib(memory) +
                                " of host memory (the evaluator " + gib(evaluator) + ", the query scalars " +
                                gib(scalars) + (key_on_host ? ", the key " + gib(key) : std::string()) + "), " +
                                gib(available.bytes) + " is available (" + available.bound + ")");
  }
  if (key_out.empty()) return;
  const std::filesystem::path dir = key_out.has_parent_path() ? key_out.parent_path() : std::filesystem::path(".");
  std::error_code ec;
  const std::filesystem::space_info space = std::filesystem::space(dir, ec);
  const std::size_t files = key + evaluator;
  if (!ec && files > space.available) {
    throw std::invalid_argument(key_out.string() + ": the key (about " + gib(key) + ") and its evaluator (about " +
                                gib(evaluator) + ") need about " + gib(files) + " on " + dir.string() + ", " +
                                gib(space.available) + " is free");
  }
}

SetUpParameters set_up_parameters(const SetupRequest& request) {
  WorkloadSpec one = request.workload;
  one.partitions = 1;
  return set_up_parameters(request, *make_circuit(one));
}

namespace {

// What the fixed-base multiplications need: the compiled circuit, the toxic waste
// and the query scalars.
struct SetupInputs {
  BackendOptions backend;  // resolved
  bool bars = false;
  std::shared_ptr<const r1cs::CompiledR1cs> evaluator;
  groth16::ToxicWaste secrets;
  groth16::SetupScalars scalars;
};

SetupInputs prepare_setup(const SetupRequest& request, const r1cs::PartitionedCircuit& circuit) {
  SetupInputs in;
  in.backend = resolve_backend(request.backend);  // once: the device check, the multiplications and the summary
  // No device: fail before the long steps.
  if (in.backend.backend == "cuda") make_backend(in.backend, memory::BufferLedger::process());
  // --quiet drops the bars; the steps' times are printed either way.
  in.bars = !request.quiet && isatty(STDERR_FILENO);
  auto t = Clock::now();
  {
    ProgressBar bar(in.bars);
    in.evaluator = std::make_shared<const r1cs::CompiledR1cs>(groth16::compile_circuit(
        circuit, [&](std::size_t done) { bar.update("compiling " + circuit.name(), done, 0); }));
  }
  const r1cs::CompiledR1cs& compiled = *in.evaluator;
  std::cerr << "setup: " << circuit.name() << ": " << compiled.num_constraints << " constraints, "
            << compiled.num_inputs << " inputs, " << compiled.num_aux << " aux; compiled in "
            << format_seconds(seconds_since(t)) << "\n";

  t = Clock::now();
  in.secrets = groth16::ToxicWaste::from_seed(request.setup_seed);
  in.scalars = groth16::setup_scalars(compiled, in.secrets);
  std::cerr << "setup: QAP at tau and query scalars in " << format_seconds(seconds_since(t)) << "\n";
  return in;
}

}  // namespace

SetUpParameters set_up_parameters(const SetupRequest& request, const r1cs::PartitionedCircuit& circuit) {
  SetupRequest r = request;
  SetupInputs in = prepare_setup(request, circuit);
  r.backend = in.backend;
  SetUpParameters out;
  out.circuit_name = circuit.name();
  out.evaluator = in.evaluator;
  const auto t = Clock::now();
  {
    ProgressBar bar(in.bars);
    out.key = std::make_shared<const groth16::ProvingKey>(
        multiply(r, in.scalars, in.secrets,
                 [&](std::string_view q, std::size_t done, std::size_t total) { bar.update(q, done, total); }));
  }
  std::cerr << "setup: fixed-base multiplications on the " << describe_backend(r.backend) << " in "
            << format_seconds(seconds_since(t)) << "\n"
            << describe_key_placement(*out.key);
  return out;
}

void set_up_to_file(const SetupRequest& request, const r1cs::PartitionedCircuit& circuit,
                    const std::filesystem::path& path) {
  SetupRequest r = request;
  r.backend = resolve_backend(request.backend);  // once: a resolved backend is not probed again
  if (!streams_to_file(r)) {
    write_parameters(path, set_up_parameters(r, circuit));
    return;
  }
  const SetupInputs in = prepare_setup(r, circuit);
  std::filesystem::create_directories(path.parent_path().empty() ? "." : path.parent_path());
  const auto t = Clock::now();
  {
    ProgressBar bar(in.bars);
    groth16::write_parameter_file(
        path, groth16::streamed_setup(in.scalars, in.secrets, [&](std::string_view q, std::size_t done,
                                                                  std::size_t total) { bar.update(q, done, total); }));
  }
  // Just written: mapped without reading it all again.
  SetUpParameters written;
  written.circuit_name = circuit.name();
  written.evaluator = in.evaluator;
  written.key = std::make_shared<const groth16::ProvingKey>(
      groth16::load_parameter_file(path, {.verify_checksums = false, .check_points = false}));
  std::cerr << "setup: fixed-base multiplications on the " << describe_backend(in.backend)
            << ", written to the file as computed, in " << format_seconds(seconds_since(t)) << "\n"
            << describe_key_placement(*written.key);
  cache_evaluator(path, written);
}

void write_parameters(const std::filesystem::path& path, const SetUpParameters& p) {
  std::filesystem::create_directories(path.parent_path().empty() ? "." : path.parent_path());
  groth16::write_parameter_file(path, *p.key);
  cache_evaluator(path, p);
}

void cache_evaluator(const std::filesystem::path& path, const SetUpParameters& p) {
  try {
    groth16::write_evaluator_file(proving::evaluator_path(path), *p.evaluator, p.circuit_name,
                                  groth16::key_fingerprint(*p.key));
  } catch (const std::exception& e) {
    // The key alone is complete: proving compiles the evaluator again when it finds no cache.
    std::cerr << "zkpipe: warning: the evaluator could not be cached (" << e.what() << ")\n";
  }
}

namespace {

// In host memory an affine point carries its infinity flag (and padding); on a
// device (x, y) alone, (0, 0) standing for infinity.
template <class Points>
std::size_t point_bytes(const Points& points) {
  using Point = typename Points::value_type;
  return points.size() * (points.on_host() ? sizeof(Point) : 2 * sizeof(typename Point::Field));
}

}  // namespace

std::size_t key_point_bytes(const groth16::ProvingKey& key) {
  return point_bytes(key.a) + point_bytes(key.b_g1) + point_bytes(key.b_g2) + point_bytes(key.l) +
         point_bytes(key.h);
}

std::string describe_key_placement(const groth16::ProvingKey& key) {
  std::ostringstream out;
  auto line = [&](const char* name, const auto& points) {
    const auto where = points.on_device();
    out << "  key query " << name << ": " << points.size() << " points, "
        << format_bytes(static_cast<double>(point_bytes(points))) << ", "
        << (where ? "device " + std::to_string(where->device) : std::string("host")) << "\n";
  };
  line("a", key.a);
  line("b_g1", key.b_g1);
  line("b_g2", key.b_g2);
  line("l", key.l);
  line("h", key.h);
  return out.str();
}

}  // namespace zkpipe::cli
