#include <exception>
#include <iostream>
#include <string_view>

#include "commands.hpp"
#include "formats/excerpt.hpp"
#include "io/mapping_faults.hpp"
#include "memory/allocator.hpp"

namespace {

// Error texts may quote what the user typed or a file held: cut them short.
constexpr std::size_t kMaxErrorChars = 2000;

}  // namespace

int main(int argc, char** argv) {
  // Before any thread starts: large blocks mmap'ed and returned when freed, so that
  // RSS follows the ledger (memory/allocator.hpp).
  if (!zkpipe::memory::tune_allocator()) std::cerr << "zkpipe: warning: malloc refused its settings (mallopt)\n";
  // A parameter file truncated under a mapping fails the proof that read it, not the
  // process (io/mapping_faults.hpp).
  zkpipe::io::install_mapping_fault_handler();
  CLI::App app{"zkpipe: a pipelined Groth16 proving engine for BLS12-381"};
  app.require_subcommand(1);
  zkpipe::cli::register_setup(app);
  zkpipe::cli::register_prove(app);
  zkpipe::cli::register_verify(app);
  zkpipe::cli::register_circuit(app);
  zkpipe::cli::register_devices(app);
  zkpipe::cli::register_bench(app);
  zkpipe::cli::register_groth16(app);
  zkpipe::cli::register_zkey(app);
  zkpipe::cli::register_vk(app);
  zkpipe::cli::register_filecoin(app);
#ifdef ZKPIPE_WITH_SERVICE
  zkpipe::cli::register_serve(app);
  zkpipe::cli::register_client(app);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {
    // A command's own verdict (a proof that does not verify: 1), already reported.
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    // Every argument error exits 2, as documented (CLI11's own codes are 100 and up).
    std::cerr << "zkpipe: error: " << zkpipe::formats::excerpt(e.what(), kMaxErrorChars)
              << "\nRun with --help for more information.\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "zkpipe: error: " << zkpipe::formats::excerpt(e.what(), kMaxErrorChars) << "\n";
    return 2;
  }
  return 0;
}
