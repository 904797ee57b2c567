#include "device_plan.hpp"

#include <bit>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "groth16/synthesis.hpp"
#include "progress.hpp"

#ifdef ZKPIPE_WITH_CUDA
#include "gpu/cuda_prover.hpp"
#include "gpu/placement.hpp"
#endif

namespace zkpipe::cli {

void require_sector_size(const CLI::App& cmd, const WorkloadSpec& workload) {
  if (workload.circuit == kFilecoinPorep && cmd.get_option("--sector-size")->count() == 0 &&
      cmd.get_option("--preset")->count() == 0) {
    throw std::invalid_argument("--circuit filecoin-porep needs --sector-size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
  }
}

CountedWorkload count_workload(const WorkloadSpec& workload, const SealProofChoice& seal_proof) {
  CountedWorkload out;
  if (workload.circuit == kFilecoinPorep) {
    SealProofChoice choice = seal_proof;
    choice.sector_size = workload.preset;
    out.seal = &resolve_seal_proof(choice);
    out.circuit =
        std::make_shared<const filecoin::porep::StackedCircuit>(filecoin::api::stacked_circuit_shape(*out.seal));
  } else {
    out.circuit = proving::make_shape_circuit(workload);
  }
  out.shape = groth16::count_shape(*out.circuit);
  return out;
}

#ifdef ZKPIPE_WITH_CUDA
// What the CUDA prover would do with a key of this shape (gpu/placement.hpp): the
// key's points, the least a partition needs, and with a budget what stays resident
// (a pce witness's evaluator first, then the key's queries) and what each partition
// streams. Link rates: PCIe 5 x16 as measured on the H100 host (54.9 GB/s,
// docs/BENCHMARKS.md), PCIe 4 x16 half.
void print_device_plan(const groth16::CircuitShape& s, std::optional<std::size_t> device_memory) {
  const gpu::KeyQuerySizes k = gpu::KeyQuerySizes::of(s);
  const std::size_t points = gpu::resident_point_bytes(k, true);
  const std::size_t least = gpu::least_device_bytes(k);
  // The shape counts the matrices' entries when it comes from the circuit (the pce
  // path's evaluator); 0 when it does not know them.
  const std::size_t evaluator = s.evaluator_bytes();
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
  const std::size_t most_pass_terms = gpu::CudaProverOptions{}.max_msm_pass_terms;
  const gpu::QueryResidency plan = gpu::plan_query_residency(k, most_pass_terms, true, left);
  const std::size_t streamed = points - plan.bytes(k) + (evaluator_resident ? 0 : evaluator);
  std::cout << "                 " << budget << ": points ";
  if (plan.all(true)) {
    std::cout << "resident";
    if (plan.msm_pass_terms < most_pass_terms) {
      std::cout << " (MSM passes of at most 2^" << std::bit_width(plan.msm_pass_terms) - 1 << " terms)";
    }
  } else if (plan.any()) {
    std::cout << "streamed but for " << plan.names() << " (resident)";
  } else {
    std::cout << "streamed";
  }
  if (evaluator != 0) std::cout << ", evaluator " << (evaluator_resident ? "resident" : "streamed");
  if (streamed == 0) {
    std::cout << ", nothing streamed per partition\n";
    return;
  }
  char bound[112];
  std::snprintf(bound, sizeof bound, "%.2f s of transfer at 54.9 GB/s (PCIe 5 x16), %.2f s at 27 GB/s (PCIe 4 x16)",
                double(streamed) / 54.9e9, double(streamed) / 27e9);
  std::cout << "; " << format_bytes(double(streamed))
            << " over the link per partition from a page-locked copy of that size in host memory: at least " << bound
            << "\n";
}
#else
void print_device_plan(const groth16::CircuitShape&, std::optional<std::size_t>) {
  std::cout << "on a GPU         this build has no CUDA backend (configured without nvcc)\n";
}
#endif

}  // namespace zkpipe::cli
