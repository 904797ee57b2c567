#include <bit>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "circuits/filecoin/api/c1_circuit.hpp"
#include "backend.hpp"
#include "commands.hpp"
#include "device_plan.hpp"
#include "groth16/footprint.hpp"
#include "groth16/synthesis.hpp"
#include "progress.hpp"
#include "seal_proof_args.hpp"
#include "workloads.hpp"


namespace zkpipe::cli {

namespace {


struct InfoOptions {
  WorkloadSpec workload;
  SealProofChoice seal_proof;
  std::optional<std::size_t> device_memory;
};


void run_info(const InfoOptions& o) {
  const CountedWorkload counted = count_workload(o.workload, o.seal_proof);
  const filecoin::core::SealProof* seal = counted.seal;
  const auto& circuit = counted.circuit;
  const groth16::CircuitShape& s = counted.shape;
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
            << format_bytes(double(s.evaluator_bytes())) << ", once per circuit shape)\n"
            << "pce witness      about " << format_bytes(double(s.aux / 4 + f.density + 32 * s.inputs))
            << " per partition while queued (0/1 values as bits; wide values add 32 bytes each)\n";
  print_device_plan(s, o.device_memory);
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
  add_device_memory_option(
      *info, opts->device_memory,
      "With the CUDA backend: whether a key of this shape stays resident within this much GPU memory, or streams");
  info->callback([opts, info] {
    require_sector_size(*info, opts->workload);
    run_info(*opts);
  });
}

}  // namespace zkpipe::cli
