#include <bit>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "circuits/filecoin/c1_circuit.hpp"
#include "backend.hpp"
#include "commands.hpp"
#include "groth16/footprint.hpp"
#include "groth16/synthesis.hpp"
#include "progress.hpp"
#include "seal_proof_args.hpp"
#include "workloads.hpp"

#ifdef ZKPIPE_WITH_CUDA
#include "gpu/cuda_prover.hpp"
#include "gpu/placement.hpp"
#endif

namespace zkpipe::cli {

namespace {

constexpr const char* kFilecoinPorep = "filecoin-porep";

struct InfoOptions {
  WorkloadSpec workload;
  SealProofChoice seal_proof;
  std::optional<std::size_t> device_memory;
};

#ifdef ZKPIPE_WITH_CUDA
// What the CUDA prover would do with a key of this shape (gpu/placement.hpp): the
// key's points, the least a partition needs, and with a budget what stays resident
// (a pce witness's evaluator first, then the points) and what each partition
// streams. Link rates: PCIe 5 x16 as measured on the H100 host (54.9 GB/s,
// docs/BENCHMARKS.md), PCIe 4 x16 half.
void print_device_plan(const groth16::CircuitShape& s, std::optional<std::size_t> device_memory) {
  const gpu::KeyQuerySizes k = gpu::KeyQuerySizes::of(s);
  const std::size_t points = gpu::resident_point_bytes(k, true);
  const std::size_t least = gpu::least_device_bytes(k);
  // The shape counts the matrices' entries when it comes from the circuit (the pce
  // path's evaluator); 0 when it does not know them.
  const std::size_t evaluator = s.nonzeros == 0 ? 0 : gpu::evaluator_bytes(s.constraints, s.nonzeros);
  std::cout << "on a GPU         key points about " << format_bytes(double(points)) << " (G1 A, B, L, H and G2 B); a "
            << "partition needs at least " << format_bytes(double(least)) << " of device memory (points streamed)";
  if (evaluator != 0) std::cout << "; the pce evaluator " << format_bytes(double(evaluator));
  std::cout << "\n";
  if (!device_memory) return;
  const std::string budget = "--device-memory " + format_bytes(double(*device_memory));
  if (*device_memory < least) {
    std::cout << "                 " << budget << ": refused, below the least a partition needs\n";
    return;
  }
  const bool evaluator_resident = evaluator != 0 && gpu::evaluator_fits(k, evaluator, *device_memory);
  const std::size_t left = evaluator_resident ? *device_memory - evaluator : *device_memory;
  const auto pass_terms = gpu::resident_pass_terms(k, gpu::CudaProverOptions{}.max_msm_pass_terms, true, left);
  const bool points_resident = pass_terms.has_value();
  const std::size_t streamed = (points_resident ? 0 : points) + (evaluator_resident ? 0 : evaluator);
  std::cout << "                 " << budget << ": points ";
  if (points_resident) {
    std::cout << "resident (MSM passes of at most 2^" << std::bit_width(*pass_terms) - 1 << " terms)";
  } else {
    std::cout << "streamed";
  }
  if (evaluator != 0) std::cout << ", evaluator " << (evaluator_resident ? "resident" : "streamed");
  if (streamed == 0) {
    std::cout << ", nothing streamed per partition\n";
    return;
  }
  char bound[96];
  std::snprintf(bound, sizeof bound, "%.2f s of transfer at 54.9 GB/s (PCIe 5 x16), %.2f s at 27 GB/s (PCIe 4 x16)",
                double(streamed) / 54.9e9, double(streamed) / 27e9);
  std::cout << "; at most " << format_bytes(double(streamed))
            << " over the link per partition (of the points only the non-zero terms' go): at most " << bound << "\n";
}
#endif

void run_info(const InfoOptions& o) {
  const filecoin::SealProof* seal = nullptr;
  std::shared_ptr<const r1cs::PartitionedCircuit> circuit;
  if (o.workload.circuit == kFilecoinPorep) {
    // The shape alone (every value zero): no synthetic C1 to draw for counting.
    SealProofChoice choice = o.seal_proof;
    choice.sector_size = o.workload.preset;
    seal = &resolve_seal_proof(choice);
    circuit = std::make_shared<const filecoin::StackedCircuit>(filecoin::stacked_circuit_shape(*seal));
  } else {
    circuit = proving::make_shape_circuit(o.workload);
  }
  // Counted, not recorded: at 2^27 the recorded matrices alone would need ~26 GiB.
  groth16::CircuitShape s = groth16::count_shape(*circuit);
  groth16::PartitionFootprint f = groth16::PartitionFootprint::of(s);
  auto pct = [&](std::size_t n, std::size_t of) { return of == 0 ? 0.0 : 100.0 * double(n) / double(of); };
  std::cout << "circuit          " << circuit->name() << "\n";
  if (seal != nullptr) {
    std::cout << "seal proof       " << seal->name << " (" << describe_sector_size(seal->sector_bytes) << ")\n"
              << "partitions       " << seal->partitions() << " per proof, each of the shape below\n"
              << "challenges       " << seal->challenges_per_partition() << " per partition\n";
  }
  std::cout << "constraints      " << s.constraints << " (input constraints included)\n"
            << "public inputs    " << s.inputs << " (ONE included)\n"
            << "aux variables    " << s.aux << "\n"
            << "domain size      " << s.domain_size << " (2^" << std::countr_zero(s.domain_size) << ")\n"
            << "A density (aux)  " << s.a_aux_density << " (" << pct(s.a_aux_density, s.aux) << "%)\n"
            << "B density        " << s.b_input_density << " inputs, " << s.b_aux_density << " aux ("
            << pct(s.b_aux_density, s.aux) << "%)\n"
            << "working set      " << format_bytes(double(f.total())) << " per partition: a/b/c "
            << format_bytes(double(f.abc)) << ", assignment " << format_bytes(double(f.assignment)) << ", density "
            << format_bytes(double(f.density)) << ", scratch " << format_bytes(double(f.scratch)) << "\n"
            << "A/B/C entries    " << s.nonzeros << " (the pce evaluator: about "
            << format_bytes(double(8 * s.nonzeros + 3 * 8 * s.constraints)) << ", once per circuit shape)\n"
            << "pce witness      about " << format_bytes(double(s.aux / 4 + f.density + 32 * s.inputs))
            << " per partition while queued (0/1 values as bits; wide values add 32 bytes each)\n";
#ifdef ZKPIPE_WITH_CUDA
  print_device_plan(s, o.device_memory);
#endif
}

}  // namespace

void register_circuit(CLI::App& app) {
  auto opts = std::make_shared<InfoOptions>();
  CLI::App* circuit = app.add_subcommand("circuit", "Circuit inspection");
  circuit->require_subcommand(1);
  CLI::App* info = circuit->add_subcommand(
      "info", "Constraints, inputs, densities and working set of a preset, or (--circuit filecoin-porep "
              "--sector-size S) of a Filecoin seal proof's partition");
  add_circuit_options(*info, opts->workload);
  add_seal_proof_variant_options(*info, opts->seal_proof);
  info->add_option_function<std::string>(
      "--device-memory",
      [opts](const std::string& text) {
        try {
          opts->device_memory = parse_device_memory(text);
        } catch (const std::invalid_argument& e) {
          throw CLI::ValidationError("--device-memory", e.what());
        }
      },
      "With the CUDA backend: whether a key of this shape stays resident within this much GPU memory, or streams");
  info->callback([opts, info] {
    if (opts->workload.circuit == kFilecoinPorep && info->get_option("--sector-size")->count() == 0 &&
        info->get_option("--preset")->count() == 0) {
      throw std::invalid_argument("--circuit filecoin-porep needs --sector-size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
    }
    run_info(*opts);
  });
}

}  // namespace zkpipe::cli
