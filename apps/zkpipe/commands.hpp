// The zkpipe command line: each command family registers its subcommands on the
// top-level CLI11 app from its own file.
#pragma once

#include <CLI/CLI.hpp>

namespace zkpipe::cli {

void register_setup(CLI::App& app);    // zkpipe setup
void register_prove(CLI::App& app);    // zkpipe prove
void register_verify(CLI::App& app);   // zkpipe verify
void register_circuit(CLI::App& app);  // zkpipe circuit info
void register_devices(CLI::App& app);  // zkpipe devices
void register_bench(CLI::App& app);    // zkpipe bench batch | sweep | pileup | limit
void register_groth16(CLI::App& app);  // zkpipe groth16 prove|verify (snarkjs files)
void register_zkey(CLI::App& app);
void register_vk(CLI::App& app);       // zkpipe vk export     // zkpipe zkey import|export-vk
void register_filecoin(CLI::App& app); // zkpipe filecoin setup|seal|c2|verify|vanilla
void register_filecoin_vanilla(CLI::App& filecoin);  // zkpipe filecoin vanilla
#ifdef ZKPIPE_WITH_SERVICE
void register_serve(CLI::App& app);    // zkpipe serve
void register_client(CLI::App& app);   // zkpipe client submit|await|prove|cancel|status|metrics|preload|evict|watch
#endif

}  // namespace zkpipe::cli
